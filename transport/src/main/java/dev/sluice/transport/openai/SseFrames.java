package dev.sluice.transport.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Server-Sent Events framing of OpenAI streams: {@code data: <json>} and a blank line per event, then
 * {@code data: [DONE]}. Nothing here flushes: the writer flushes when it has written what is ready (one flush is one
 * write to the socket, one HTTP chunk).
 */
public final class SseFrames {
    /** The content type of a stream. */
    public static final String CONTENT_TYPE = "text/event-stream";

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {
    }

    /** Writes one event. */
    public static void event(OutputStream out, byte[] json) throws IOException {
        out.write(DATA);
        out.write(json);
        out.write(END);
    }

    /** Writes the terminating {@code [DONE]} event. */
    public static void done(OutputStream out) throws IOException {
        out.write(DONE);
    }
}
