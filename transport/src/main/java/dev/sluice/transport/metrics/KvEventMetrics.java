package dev.sluice.transport.metrics;

import java.util.Locale;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the engines' KV-event subscribers did, per worker: batches received, events passed to the router, events
 * dropped or ignored (by reason), sequence gaps, gaps recovered through the engine's replay socket, and resets (the
 * router forgot the worker's cache: an unrecoverable gap, an engine restart, the engine's own clear). Each worker's
 * counters are written by that worker's subscriber thread only and read by scrapes on any thread. Labels are
 * bounded: workers from the configuration, reasons from the closed enums here.
 */
public final class KvEventMetrics {
    final ConcurrentSkipListMap<Long, Worker> workers = new ConcurrentSkipListMap<>();

    /** Why an event or batch could not be used. */
    public enum Drop {
        /** Wrong frame count, bad msgpack, an unknown tag, a field of the wrong type, a rank out of range. */
        MALFORMED,
        /** A stored block of another size than the router hashes. */
        BLOCK_SIZE,
        /** Stored blocks chained from a parent the subscriber never saw stored (after a reset, or a late start). */
        UNKNOWN_PARENT;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why an event was left out on purpose: the router's prefix index models one GPU cache of plain tokens. */
    public enum Ignore {
        /** Blocks on another medium than the GPU (an offloading tier). */
        MEDIUM,
        /** Blocks of a LoRA adapter, or whose hash has extra keys (multimodal inputs, a cache salt). */
        EXTRA_KEYS,
        /** Blocks of another KV-cache group than the one full-attention group indexed (hybrid models). */
        GROUP;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why the router forgot a worker rank's cache. */
    public enum Reset {
        /** Batches were lost and the replay socket could not return them (none, too short a buffer, no answer). */
        GAP,
        /** The engine's sequence numbers went back: it restarted with an empty cache. */
        RESTART,
        /** The engine said so ({@code AllBlocksCleared}). */
        CLEARED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** No worker yet. */
    public KvEventMetrics() {
    }

    /** Worker {@code workerId}'s counters, exported from now on (at 0 until they change). Any thread. */
    public Worker worker(long workerId) {
        return workers.computeIfAbsent(workerId, id -> new Worker());
    }

    /** One worker's counters: one writer (its subscriber thread), any reader. */
    public static final class Worker {
        final AtomicLong batches = new AtomicLong();
        final AtomicLong events = new AtomicLong();
        final AtomicLong gaps = new AtomicLong();
        final AtomicLong replays = new AtomicLong();
        final AtomicLong sequence = new AtomicLong(-1);
        final AtomicLongArray dropped = new AtomicLongArray(Drop.values().length);
        final AtomicLongArray ignored = new AtomicLongArray(Ignore.values().length);
        final AtomicLongArray resets = new AtomicLongArray(Reset.values().length);

        Worker() {
        }

        /** A batch was received (live or replayed). */
        public void batch() {
            batches.lazySet(batches.get() + 1);
        }

        /** An event went to the router. */
        public void event() {
            events.lazySet(events.get() + 1);
        }

        public void drop(Drop reason) {
            dropped.lazySet(reason.ordinal(), dropped.get(reason.ordinal()) + 1);
        }

        public void ignore(Ignore reason) {
            ignored.lazySet(reason.ordinal(), ignored.get(reason.ordinal()) + 1);
        }

        /** Sequence numbers skipped: batches were lost. */
        public void gap() {
            gaps.lazySet(gaps.get() + 1);
        }

        /** The engine's sequence number of the batch just handled (live or replayed). */
        public void sequence(long value) {
            sequence.lazySet(value);
        }

        /** A gap was filled from the replay socket. */
        public void replayed() {
            replays.lazySet(replays.get() + 1);
        }

        public void reset(Reset reason) {
            resets.lazySet(reason.ordinal(), resets.get(reason.ordinal()) + 1);
        }

        public long batches() {
            return batches.get();
        }

        public long events() {
            return events.get();
        }

        public long gaps() {
            return gaps.get();
        }

        public long replays() {
            return replays.get();
        }

        /** The sequence number of the last batch handled, -1 before the first. */
        public long sequence() {
            return sequence.get();
        }

        public long dropped(Drop reason) {
            return dropped.get(reason.ordinal());
        }

        public long ignored(Ignore reason) {
            return ignored.get(reason.ordinal());
        }

        public long resets(Reset reason) {
            return resets.get(reason.ordinal());
        }
    }
}
