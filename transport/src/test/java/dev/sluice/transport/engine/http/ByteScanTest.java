package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The word-at-a-time scan agrees with a byte-by-byte reading at every position and alignment. */
class ByteScanTest {
    @Test
    void shouldFindTheFirstLineEndWherePlainScanningWould() {
        for (byte end : new byte[] {'\n', '\r'}) {
            for (int from = 0; from < 9; from++) {
                for (int at = from; at < 40; at++) {
                    byte[] bytes = new byte[40];
                    // Bytes just below and above the ends, and 0x80+, must not be taken for them.
                    Arrays.fill(bytes, (byte) 0x0b);
                    bytes[from] = (byte) 0x8d;
                    bytes[at] = end;
                    if (at + 1 < bytes.length) {
                        bytes[at + 1] = (byte) ('\n' + '\r' - end);
                    }
                    assertEquals(at, ByteScan.lineEnd(bytes, from, bytes.length),
                        "end " + end + " at " + at + " from " + from);
                    assertEquals(at, ByteScan.lineEnd(bytes, from, at), "none before " + at);
                }
            }
        }
        byte[] none = new byte[23];
        Arrays.fill(none, (byte) 0x0c);
        assertEquals(23, ByteScan.lineEnd(none, 0, 23));
        assertEquals(5, ByteScan.lineEnd(none, 5, 5), "an empty range");
    }
}
