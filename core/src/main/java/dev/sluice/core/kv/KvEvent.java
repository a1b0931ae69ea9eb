package dev.sluice.core.kv;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Objects;

/**
 * A change in one worker rank's prefix cache, as the engine publishes it. {@code eventId} increases by one per
 * publisher, so a consumer can see gaps.
 */
public sealed interface KvEvent {
    WorkerWithDpRank worker();

    long eventId();

    /** {@code parentSequenceHash} for a run that starts a sequence. */
    long NO_PARENT = 0L;

    /**
     * A contiguous run of newly stored complete blocks, chained from {@code parentSequenceHash}.
     *
     * @param hasParent          false when the run starts at the sequence's first block.
     * @param sequenceHashes     each block's identity (sequence hash).
     * @param localHashes        each block's local (token content) hash, same length.
     */
    record Stored(WorkerWithDpRank worker, long eventId, boolean hasParent, long parentSequenceHash,
                  long[] sequenceHashes, long[] localHashes) implements KvEvent {
        public Stored {
            Objects.requireNonNull(worker, "worker");
            if (sequenceHashes.length != localHashes.length) {
                throw new IllegalArgumentException("sequenceHashes and localHashes differ in length");
            }
        }

        @Override
        public String toString() {
            return "Stored[worker=" + worker + ", eventId=" + eventId + ", parent=" + (hasParent
                ? Long.toHexString(parentSequenceHash) : "none") + ", sequenceHashes="
                + java.util.Arrays.toString(sequenceHashes) + ", localHashes=" + java.util.Arrays.toString(localHashes)
                + "]";
        }
    }

    /** Complete blocks evicted or destroyed, by sequence hash. */
    record Removed(WorkerWithDpRank worker, long eventId, long[] sequenceHashes) implements KvEvent {
        public Removed {
            Objects.requireNonNull(worker, "worker");
            Objects.requireNonNull(sequenceHashes, "sequenceHashes");
        }

        @Override
        public String toString() {
            return "Removed[worker=" + worker + ", eventId=" + eventId + ", sequenceHashes="
                + java.util.Arrays.toString(sequenceHashes) + "]";
        }
    }

    /** The worker dropped its whole cache. */
    record Cleared(WorkerWithDpRank worker, long eventId) implements KvEvent {
        public Cleared {
            Objects.requireNonNull(worker, "worker");
        }
    }
}
