package dev.sluice.transport.engine.http;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Where the next line ends in a byte array, found eight bytes at a time (one {@code long} read, bit tricks instead
 * of two branches per byte): the event stream's hot loop. Stateless and thread-safe.
 */
final class ByteScan {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LF = '\n' * ONES;
    private static final long CR = '\r' * ONES;

    private ByteScan() {
    }

    /** The index of the first LF or CR in {@code bytes[from, to)}, or {@code to} when there is none. */
    static int lineEnd(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            long found = zeroBytes(word ^ LF) | zeroBytes(word ^ CR);
            if (found != 0) {
                // Little-endian: the lowest flagged byte is the first in the array, and it is never a false one.
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n' || bytes[i] == '\r') {
                return i;
            }
        }
        return to;
    }

    /**
     * The high bit of each byte of {@code word} that is zero set; a byte above a zero one may be flagged too (the
     * borrow runs upwards), the lowest flag is always right.
     */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGH_BITS;
    }
}
