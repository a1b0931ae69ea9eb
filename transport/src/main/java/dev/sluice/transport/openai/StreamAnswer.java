package dev.sluice.transport.openai;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The events of one streamed OpenAI answer, written as they are pushed: a chunk per text delta (the first chat chunk
 * also carries the assistant role), then either the finish chunk, the usage chunk when the client asked for usage,
 * and {@code data: [DONE]}, or an error event and {@code [DONE]}. It writes to {@code out} and never flushes: when
 * events leave is the caller's choice (serve's handler flushes whenever nothing more is queued; an event loop at the
 * end of a burst of the engine's bytes). Not thread-safe: one writer pushes.
 */
public final class StreamAnswer {
    private final OutputStream out;
    private final CompletionHeader header;
    private final boolean includeUsage;
    private final OpenAiJson.ChunkHead head;
    private long tokens;

    public StreamAnswer(OutputStream out, CompletionHeader header, boolean includeUsage) {
        this.out = out;
        this.header = header;
        this.includeUsage = includeUsage;
        this.head = OpenAiJson.chunkHead(header);
    }

    /** The text deltas written so far. */
    public long tokens() {
        return tokens;
    }

    /** One text delta. */
    public void token(String piece) throws IOException {
        SseFrames.event(out, OpenAiJson.chunk(head, piece, tokens == 0, null, includeUsage));
        tokens++;
    }

    /** The end: the finish chunk with {@code finishReason} (a wire name), the usage chunk if asked, {@code [DONE]}. */
    public void finished(String finishReason, long promptTokens, long completionTokens) throws IOException {
        SseFrames.event(out, OpenAiJson.chunk(head, null, tokens == 0, finishReason, includeUsage));
        if (includeUsage) {
            SseFrames.event(out, OpenAiJson.usageChunk(header, promptTokens, completionTokens));
        }
        SseFrames.done(out);
    }

    /** The end after a failure: {@code error} as an event, then {@code [DONE]}. */
    public void failed(OpenAiException error) throws IOException {
        SseFrames.event(out, OpenAiJson.error(error));
        SseFrames.done(out);
    }
}
