package dev.sluice.transport.engine.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Whether bytes are well-formed UTF-8, as the JDK's decoder judges it: the gate in front of Jackson's byte parser,
 * which decodes some ill-formed sequences (overlong forms, encoded surrogates) to characters where decoding to a
 * {@code String} gives U+FFFD. Bytes it refuses are decoded to a {@code String} as before, so both paths read the
 * same text. Its decoder and buffers are made for the first input that is not ASCII and kept; not thread-safe: one reader thread owns it.
 */
final class Utf8Check {
    private static final int OUT_CHARS = 128;
    /** Made on the first bytes that are not all ASCII. */
    private CharsetDecoder decoder;
    private ByteBuffer in;
    private CharBuffer out;

    /** True when {@code bytes[offset, offset + length)} is well-formed UTF-8 (ASCII, the usual case, is quick). */
    boolean wellFormed(byte[] bytes, int offset, int length) {
        if (ByteScan.ascii(bytes, offset, offset + length)) {
            return true;
        }
        if (decoder == null) {
            decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
            out = CharBuffer.allocate(OUT_CHARS);
        }
        if (in == null || in.array() != bytes) {
            in = ByteBuffer.wrap(bytes);
        }
        in.limit(offset + length).position(offset);
        decoder.reset();
        CoderResult result;
        do {
            // Only the verdict matters: the characters are dropped as the buffer fills.
            out.clear();
            result = decoder.decode(in, out, true);
        } while (result.isOverflow());
        if (result.isError()) {
            return false;
        }
        do {
            out.clear();
            result = decoder.flush(out);
        } while (result.isOverflow());
        return result.isUnderflow();
    }
}
