package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import java.util.Arrays;

/** Block chains and KV events for the index and active-sequence tests. */
final class KvFixtures {
    static final WorkerWithDpRank W1 = WorkerWithDpRank.of(1);
    static final WorkerWithDpRank W2 = WorkerWithDpRank.of(2);
    static final WorkerWithDpRank W3 = WorkerWithDpRank.of(3);

    private KvFixtures() {
    }

    /** A request's local block hashes: arbitrary distinct content hashes. */
    static long[] local(long... hashes) {
        return hashes;
    }

    /** The sequence hashes (block identities) of a chain of local hashes. */
    static long[] sequence(long[] local) {
        return BlockHasher.sequenceHashes(local);
    }

    /** The worker stores the whole chain {@code local} from its first block. */
    static KvEvent stored(WorkerWithDpRank worker, long[] local) {
        return new KvEvent.Stored(worker, 0, false, KvEvent.NO_PARENT, sequence(local), local);
    }

    /** The worker stores blocks {@code from ..} of chain {@code local}, chained from block {@code from - 1}. */
    static KvEvent storedFrom(WorkerWithDpRank worker, long[] local, int from) {
        long[] sequence = sequence(local);
        return new KvEvent.Stored(worker, 0, true, sequence[from - 1], Arrays.copyOfRange(sequence, from,
            sequence.length), Arrays.copyOfRange(local, from, local.length));
    }

    /** The worker evicts blocks {@code blocks} of chain {@code local}. */
    static KvEvent removed(WorkerWithDpRank worker, long[] local, int... blocks) {
        long[] sequence = sequence(local);
        long[] hashes = new long[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            hashes[i] = sequence[blocks[i]];
        }
        return new KvEvent.Removed(worker, 0, hashes);
    }
}
