package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Reads a request body up to the frontend's limit. A body over the limit is read to its end (and dropped) before the
 * 413 goes out: a server that answers and closes while the client is still sending makes the client's kernel see a
 * reset, and the client loses the 413 it was about to read. Helidon's own limit, set to {@link #ceiling}, still cuts
 * a body far over ours without reading it. Runs on the handler's virtual thread.
 */
final class RequestBody {
    private RequestBody() {
    }

    /** Helidon's limit for a frontend that accepts {@code limit} bytes: what is read and dropped at most. */
    static long ceiling(long limit) {
        return limit + Math.max(limit, 1L << 20);
    }

    /** The body, at most {@code limit} bytes; over it, the rest is drained and 413 {@code payload_too_large}. */
    static byte[] read(ServerRequest request, long limit) throws OpenAiException {
        try (InputStream in = request.content().inputStream()) {
            byte[] body = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
            if (body.length > limit) {
                in.transferTo(OutputStream.nullOutputStream());
                throw TransportErrors.payloadTooLarge();
            }
            return body;
        } catch (IOException | UncheckedIOException e) {
            throw new OpenAiException(400, "The request body could not be read", null,
                "bad_request");
        }
    }
}
