package dev.sluice.transport.engine.sim;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import java.util.Arrays;

/**
 * Numbers one rank's KV events from 0 and hands them to the sink. Owned by the rank's engine thread; not
 * thread-safe.
 */
final class KvEventPublisher {
    private final WorkerWithDpRank worker;
    private final KvEventSink sink;
    private long nextEventId;

    KvEventPublisher(WorkerWithDpRank worker, KvEventSink sink) {
        this.worker = worker;
        this.sink = sink;
    }

    /** A run of newly stored blocks {@code [from, to)} of a chain; its parent is block {@code from - 1}, if any. */
    void stored(long[] sequenceHashes, long[] localHashes, int from, int to) {
        boolean hasParent = from > 0;
        long parent = hasParent ? sequenceHashes[from - 1] : KvEvent.NO_PARENT;
        sink.onKvEvent(new KvEvent.Stored(worker, nextEventId++, hasParent, parent,
            Arrays.copyOfRange(sequenceHashes, from, to), Arrays.copyOfRange(localHashes, from, to)));
    }

    /** One newly stored block. */
    void stored(boolean hasParent, long parent, long sequenceHash, long localHash) {
        sink.onKvEvent(new KvEvent.Stored(worker, nextEventId++, hasParent, hasParent ? parent : KvEvent.NO_PARENT,
            new long[] {sequenceHash}, new long[] {localHash}));
    }

    void removed(long sequenceHash) {
        sink.onKvEvent(new KvEvent.Removed(worker, nextEventId++, new long[] {sequenceHash}));
    }
}
