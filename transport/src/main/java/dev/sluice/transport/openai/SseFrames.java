package dev.sluice.transport.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Server-Sent Events framing of OpenAI streams: {@code data: <json>} and a blank line per event, then
 * {@code data: [DONE]}. Each write flushes, so every event leaves as it is produced (with TCP_NODELAY on).
 */
public final class SseFrames {
    /** The content type of a stream. */
    public static final String CONTENT_TYPE = "text/event-stream";

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {
    }

    /** Writes one event and flushes. */
    public static void event(OutputStream out, byte[] json) throws IOException {
        out.write(DATA);
        out.write(json);
        out.write(END);
        out.flush();
    }

    /** Writes the terminating {@code [DONE]} event and flushes. */
    public static void done(OutputStream out) throws IOException {
        out.write(DONE);
        out.flush();
    }
}
