package dev.sluice.core.queue;

import java.util.Arrays;

/**
 * Which classes have a lane worth asking, as bit sets over class indices: a class is ready when its shared lane is
 * non-empty and not parked, or some exact lane is non-empty and not parked. The DRR pass walks only ready classes:
 * an empty class holds no credit and a fully parked one earns none, so skipping them is what visiting them would do.
 *
 * <p>Shared-lane parking lives only here, so a load change unparks every shared lane by clearing one bit set
 * (O(classes / 64)) instead of touching each class. Finding the next ready class scans words, not classes.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class ReadyClasses {
    private final long[] sharedQueued;
    private final long[] sharedParked;
    private final long[] exactReady;

    ReadyClasses(int classes) {
        int words = (classes + 63) >>> 6;
        this.sharedQueued = new long[words];
        this.sharedParked = new long[words];
        this.exactReady = new long[words];
    }

    void sharedQueued(int c, boolean queued) {
        assign(sharedQueued, c, queued);
    }

    void exactReady(int c, boolean ready) {
        assign(exactReady, c, ready);
    }

    void parkShared(int c) {
        assign(sharedParked, c, true);
    }

    void unparkShared(int c) {
        assign(sharedParked, c, false);
    }

    boolean isSharedParked(int c) {
        return (sharedParked[c >>> 6] & (1L << c)) != 0;
    }

    void unparkAllShared() {
        Arrays.fill(sharedParked, 0L);
    }

    /** The first ready class at or after {@code from} and before {@code to}, or -1. */
    int next(int from, int to) {
        int w = from >>> 6;
        int last = (to - 1) >>> 6;
        if (from >= to) {
            return -1;
        }
        long bits = word(w) & (-1L << from);
        while (bits == 0) {
            if (++w > last) {
                return -1;
            }
            bits = word(w);
        }
        int c = (w << 6) + Long.numberOfTrailingZeros(bits);
        return c < to ? c : -1;
    }

    private long word(int w) {
        return (sharedQueued[w] & ~sharedParked[w]) | exactReady[w];
    }

    private static void assign(long[] bits, int c, boolean value) {
        if (value) {
            bits[c >>> 6] |= 1L << c;
        } else {
            bits[c >>> 6] &= ~(1L << c);
        }
    }
}
