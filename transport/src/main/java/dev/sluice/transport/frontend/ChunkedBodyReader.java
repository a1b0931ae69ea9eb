package dev.sluice.transport.frontend;

import io.helidon.common.buffers.DataReader;
import io.helidon.http.RequestException;

/**
 * A connection's reader for Helidon's HTTP/1.1 connection, pulling from the socket's reader, that reads chunk-size
 * lines itself. Helidon 4.5.0 reads them with {@link #readLine()} (nothing else calls it) and parses the whole line
 * with {@code Integer.parseUnsignedInt}: a chunk extension, {@code zz} or an overflowing size end in a
 * {@code NumberFormatException} (a 500 carrying the client's bytes into the log), the line has no length bound, a
 * bare LF does not end it, and the entity stream's close reads the next "chunk" again, waiting for bytes that may
 * never come. Here a line is read up to {@link ChunkSizeLine#MAX_LENGTH} bytes and must end with CRLF; extensions
 * are checked and dropped, and Helidon gets the size alone in hex; after the last chunk only the empty line is
 * accepted. Anything else is a 400 ({@link ChunkSizeLine#malformed}), and every later call fails the same way
 * without reading, so nothing waits on a stream whose framing is lost. Owned by the connection's thread.
 */
final class ChunkedBodyReader extends DataReader {
    /** How much of an over-long line is read and dropped before the 400, so the client is not reset mid-send. */
    static final int DRAIN_LIMIT = 1 << 20;

    private final byte[] line = new byte[ChunkSizeLine.MAX_LENGTH];
    /** Why the body is malformed, once it is; each later call throws a new exception with it. */
    private String failed;
    private boolean lastChunkRead;

    // Helidon 4.5.0 marks DataReader's constructors for removal (later versions make them private): a subclass is the
    // only way into its chunk decoding. When it goes, so does this class; the system tests say whether Helidon's own
    // decoder then takes extensions and answers 400.
    @SuppressWarnings("removal")
    ChunkedBodyReader(DataReader socket) {
        super(() -> {
            socket.ensureAvailable();
            return socket.readBytes(socket.available());
        });
    }

    @Override
    public String readLine() {
        if (failed != null) {
            // A new exception each time: the entity stream's close adds it to the first as a suppressed one.
            throw ChunkSizeLine.malformed(failed);
        }
        try {
            int length = readBoundedLine();
            if (lastChunkRead) {
                lastChunkRead = false;
                if (length != 0) {
                    throw ChunkSizeLine.malformed(ChunkSizeLine.TRAILERS);
                }
                return "";
            }
            int size = ChunkSizeLine.parse(line, length);
            lastChunkRead = size == 0;
            return Integer.toHexString(size);
        } catch (RequestException e) {
            failed = e.getMessage();
            throw e;
        }
    }

    /** Reads a line into {@link #line} and its CRLF; its length. */
    private int readBoundedLine() {
        int length = 0;
        while (true) {
            byte b = read();
            if (b == '\r') {
                if (read() != '\n') {
                    throw ChunkSizeLine.malformed(ChunkSizeLine.BARE_LINE_BREAK);
                }
                return length;
            }
            if (b == '\n') {
                throw ChunkSizeLine.malformed(ChunkSizeLine.BARE_LINE_BREAK);
            }
            if (length == line.length) {
                drain();
                throw ChunkSizeLine.malformed(ChunkSizeLine.TOO_LONG);
            }
            line[length++] = b;
        }
    }

    /** Drops the rest of an over-long line, up to its line break or {@link #DRAIN_LIMIT} bytes. */
    private void drain() {
        for (int dropped = 0; dropped < DRAIN_LIMIT; dropped++) {
            byte b = read();
            if (b == '\n') {
                return;
            }
        }
    }
}
