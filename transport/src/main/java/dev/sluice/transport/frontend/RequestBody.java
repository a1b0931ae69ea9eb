package dev.sluice.transport.frontend;

import dev.sluice.transport.openai.OpenAiException;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * Reads a request body up to the frontend's limit. A body over the limit is read to its end (and dropped) before the
 * 413 goes out: a server that answers and closes while the client is still sending makes the client's kernel see a
 * reset, and the client loses the 413 it was about to read. Helidon's own limit, set to {@link #ceiling}, still cuts
 * a body far over ours without reading it. A body with a Content-Length is read into an array of that size; a chunked
 * one into an array that starts small and doubles, so a small body never costs a large buffer. Runs on the handler's
 * virtual thread.
 */
final class RequestBody {
    /** The first array for a body of unknown length: most chat requests fit. */
    static final int FIRST_CHUNKED_ARRAY = 1024;

    private RequestBody() {
    }

    /** Helidon's limit for a frontend that accepts {@code limit} bytes: what is read and dropped at most. */
    static long ceiling(long limit) {
        return limit + Math.max(limit, 1L << 20);
    }

    /** The body, at most {@code limit} bytes; over it, the rest is drained and 413 {@code payload_too_large}. */
    static byte[] read(ServerRequest request, long limit) throws OpenAiException {
        try (InputStream in = request.content().inputStream()) {
            return read(in, request.headers().contentLength(), limit);
        } catch (IOException | UncheckedIOException e) {
            throw new OpenAiException(400, "The request body could not be read", null,
                "bad_request");
        }
    }

    /**
     * The body of {@code in}, whose length the request's Content-Length gives when present; over {@code limit}, the
     * stream is read to its end and 413.
     */
    static byte[] read(InputStream in, OptionalLong contentLength, long limit) throws IOException, OpenAiException {
        long cap = Math.min(limit, Integer.MAX_VALUE - 8L);
        if (contentLength.isPresent() && contentLength.getAsLong() <= cap) {
            int length = (int) contentLength.getAsLong();
            byte[] body = new byte[length];
            int read = in.readNBytes(body, 0, length);
            return read == length ? body : Arrays.copyOf(body, read);
        }
        if (contentLength.isPresent()) {
            in.transferTo(OutputStream.nullOutputStream());
            throw TransportErrors.payloadTooLarge();
        }
        return readUnknownLength(in, cap);
    }

    /** A body without a Content-Length: into an array doubled as it fills, to {@code cap} + 1 bytes at most. */
    private static byte[] readUnknownLength(InputStream in, long cap) throws IOException, OpenAiException {
        int most = (int) (cap + 1);
        byte[] body = new byte[Math.min(most, FIRST_CHUNKED_ARRAY)];
        int length = 0;
        while (true) {
            if (length == body.length) {
                if (length == most) {
                    break;
                }
                body = Arrays.copyOf(body, (int) Math.min(most, 2L * length));
            }
            int read = in.read(body, length, body.length - length);
            if (read < 0) {
                break;
            }
            length += read;
        }
        if (length > cap) {
            in.transferTo(OutputStream.nullOutputStream());
            throw TransportErrors.payloadTooLarge();
        }
        return length == body.length ? body : Arrays.copyOf(body, length);
    }
}
