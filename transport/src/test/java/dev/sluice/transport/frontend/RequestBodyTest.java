package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.transport.openai.OpenAiException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** How much of a request body is read, into what, and what a body over the limit gets. */
class RequestBodyTest {
    private static final long LIMIT = 64 * 1024;

    @Test
    void shouldReadADeclaredBodyIntoAnArrayOfItsLength() throws Exception {
        byte[] sent = bytes(300);
        Source in = new Source(sent);

        byte[] body = RequestBody.read(in, OptionalLong.of(sent.length), LIMIT);

        assertArrayEquals(sent, body);
        assertEquals(sent.length, in.largestArray, "no array larger than the body is read into");
    }

    @Test
    void shouldReadAChunkedBodyIntoSmallArraysGrownAsItFills() throws Exception {
        byte[] small = bytes(200);
        Source in = new Source(small);
        assertArrayEquals(small, RequestBody.read(in, OptionalLong.empty(), LIMIT));
        assertEquals(RequestBody.FIRST_CHUNKED_ARRAY, in.largestArray);

        byte[] larger = bytes(5000);
        Source more = new Source(larger);
        assertArrayEquals(larger, RequestBody.read(more, OptionalLong.empty(), LIMIT));
        assertEquals(8 * RequestBody.FIRST_CHUNKED_ARRAY, more.largestArray, "doubled from the first array");
    }

    @Test
    void shouldAcceptABodyOfExactlyTheLimitEitherWay() throws Exception {
        byte[] sent = bytes((int) LIMIT);
        assertArrayEquals(sent, RequestBody.read(new Source(sent), OptionalLong.of(LIMIT), LIMIT));
        assertArrayEquals(sent, RequestBody.read(new Source(sent), OptionalLong.empty(), LIMIT));
    }

    @Test
    void shouldDrainADeclaredBodyOverTheLimitThenAnswer413() {
        Source in = new Source(bytes((int) LIMIT + 1));

        OpenAiException e = assertThrows(OpenAiException.class,
            () -> RequestBody.read(in, OptionalLong.of(LIMIT + 1), LIMIT));

        assertEquals(413, e.status());
        assertEquals("payload_too_large", e.code());
        assertEquals(0, in.available(), "the whole body is read before the 413 goes out");
    }

    @Test
    void shouldDrainAChunkedBodyOverTheLimitThenAnswer413() {
        Source in = new Source(bytes((int) LIMIT * 3));

        OpenAiException e = assertThrows(OpenAiException.class,
            () -> RequestBody.read(in, OptionalLong.empty(), LIMIT));

        assertEquals(413, e.status());
        assertEquals(0, in.available(), "the whole body is read before the 413 goes out");
    }

    @Test
    void shouldReturnWhatCameOfADeclaredBodyCutShort() throws Exception {
        byte[] sent = bytes(10);

        assertArrayEquals(sent, RequestBody.read(new Source(sent), OptionalLong.of(40), LIMIT));
    }

    private static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) 'x');
        bytes[length - 1] = '}';
        return bytes;
    }

    /** A body that records the largest array it was asked to read into. */
    private static final class Source extends ByteArrayInputStream {
        int largestArray;

        Source(byte[] body) {
            super(body);
        }

        @Override
        public synchronized int read(byte[] into, int off, int len) {
            largestArray = Math.max(largestArray, into.length);
            return super.read(into, off, len);
        }

        @Override
        public synchronized long transferTo(OutputStream out) throws IOException {
            // InputStream's own loop, so that the drain goes through read(byte[], int, int) like Helidon's stream.
            byte[] buffer = new byte[16 * 1024];
            long total = 0;
            int read;
            while ((read = read(buffer, 0, buffer.length)) >= 0) {
                out.write(buffer, 0, read);
                total += read;
            }
            return total;
        }
    }
}
