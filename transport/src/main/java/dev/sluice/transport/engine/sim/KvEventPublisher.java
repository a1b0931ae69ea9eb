package dev.sluice.transport.engine.sim;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import java.util.Arrays;

/**
 * Numbers one rank's KV events from 0 and hands them to the sink (the router's hashes) and to the engine listener
 * (the engine's hashes with the blocks' tokens, for the wire). Owned by the rank's engine thread; not thread-safe.
 */
final class KvEventPublisher {
    private final WorkerWithDpRank worker;
    private final KvEventSink sink;
    private final EngineKvListener listener;
    private final int blockSize;
    private long nextEventId;

    KvEventPublisher(WorkerWithDpRank worker, KvEventSink sink) {
        this(worker, sink, EngineKvListener.NONE, 1);
    }

    /** {@code blockSize} cuts each block's tokens out of a sequence's for {@code listener}. */
    KvEventPublisher(WorkerWithDpRank worker, KvEventSink sink, EngineKvListener listener, int blockSize) {
        this.worker = worker;
        this.sink = sink;
        this.listener = listener;
        this.blockSize = blockSize;
    }

    /**
     * A run of newly stored blocks {@code [from, to)} of a chain; its parent is block {@code from - 1}, if any.
     * {@code tokens} are the sequence's, block {@code i} at {@code [i * blockSize, (i + 1) * blockSize)}.
     */
    void stored(long[] sequenceHashes, long[] localHashes, int[] tokens, int from, int to) {
        boolean hasParent = from > 0;
        long parent = hasParent ? sequenceHashes[from - 1] : KvEvent.NO_PARENT;
        long[] run = Arrays.copyOfRange(sequenceHashes, from, to);
        sink.onKvEvent(new KvEvent.Stored(worker, nextEventId++, hasParent, parent, run,
            Arrays.copyOfRange(localHashes, from, to)));
        if (listener != EngineKvListener.NONE) {
            listener.onStored(worker.dpRank(), run.clone(), hasParent, parent,
                Arrays.copyOfRange(tokens, from * blockSize, to * blockSize));
        }
    }

    /** One newly stored block, block {@code block} of {@code tokens}. */
    void stored(boolean hasParent, long parent, long sequenceHash, long localHash, int[] tokens, int block) {
        sink.onKvEvent(new KvEvent.Stored(worker, nextEventId++, hasParent, hasParent ? parent : KvEvent.NO_PARENT,
            new long[] {sequenceHash}, new long[] {localHash}));
        if (listener != EngineKvListener.NONE) {
            listener.onStored(worker.dpRank(), new long[] {sequenceHash}, hasParent, parent,
                Arrays.copyOfRange(tokens, block * blockSize, (block + 1) * blockSize));
        }
    }

    void removed(long sequenceHash) {
        sink.onKvEvent(new KvEvent.Removed(worker, nextEventId++, new long[] {sequenceHash}));
        if (listener != EngineKvListener.NONE) {
            listener.onRemoved(worker.dpRank(), new long[] {sequenceHash});
        }
    }
}
