package dev.sluice.core.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.PolicyChange;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;
import java.util.OptionalLong;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Turns every observer callback into one record of the layout in {@code FORMAT.md}: type byte, scheduler time,
 * then the type's fields. Subclasses say where the bytes go ({@link JournalWriter}: a Chronicle Queue document;
 * {@link JournalCapture}: memory). Allocates nothing per record. Called on the scheduler thread only.
 */
abstract class EncodingObserver implements SchedulerObserver {
    private final int overloadStatus;
    /** The scheduler time of the latest record begun: where a clean close is stamped. */
    long lastNs;

    EncodingObserver(int overloadStatus) {
        this.overloadStatus = overloadStatus;
    }

    /** Starts a record; {@code null} drops it (the subclass counts that). */
    abstract Bytes<?> begin();

    /** Makes the record written since {@link #begin()} durable and visible. */
    abstract void commit();

    /** Writing failed: discard the partial record and account for the failure. */
    abstract void abandon(Throwable failure);

    /**
     * Writes one record: starts it, writes the type byte, the time and then the type's fields, and commits; a failure
     * after the start, the commit's included, abandons it. The fields writers passed here capture nothing, so each
     * is one constant and nothing is allocated. {@code number} carries a callback's {@code long} argument unboxed;
     * callbacks that have none pass 0. With the document's begin and commit inlined, C2 finds this method too big to
     * inline into each callback, so the writer is one profiled call per record: JournalBench measured it within
     * noise of the block written out per callback.
     */
    private <A, B> void record(RecordType type, long nowNs, long number, A a, B b, Fields<A, B> fields) {
        lastNs = nowNs;
        Bytes<?> out = begin();
        if (out == null) {
            return;
        }
        try {
            out.writeByte(type.code());
            out.writeLong(nowNs);
            fields.write(out, overloadStatus, nowNs, number, a, b);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    /** The fields of one record type, after its type byte and time, from a callback's arguments spread out. */
    @FunctionalInterface
    private interface Fields<A, B> {
        void write(Bytes<?> out, int overloadStatus, long nowNs, long number, A a, B b);
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        record(RecordType.ARRIVED, nowNs, 0L, request, null, (out, status, now, unused, r, none) -> {
            out.writeLong(r.lifecycleId());
            RecordEncoder.request(out, r);
            RecordEncoder.promptBlocks(out, r);
            out.writeUtf8(r.clientRequestId());
        });
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        record(RecordType.REFUSED, nowNs, lifecycleId, request, error, (out, status, now, id, r, e) -> {
            out.writeLong(id);
            RecordEncoder.request(out, now, r);
            RecordEncoder.error(out, e, status);
            out.writeUtf8(r.clientRequestId());
        });
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        record(RecordType.CLASSIFIED, nowNs, 0L, request, decision, (out, status, now, unused, r, d) -> {
            out.writeLong(r.lifecycleId());
            out.writeByte((byte) d.ordinal());
            RecordEncoder.overrides(out, r);
        });
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        record(RecordType.ENQUEUED, nowNs, 0L, request, policyClass, (out, status, now, unused, r, c) -> {
            out.writeLong(r.lifecycleId());
            out.writeInt(r.classIndex());
            out.writeUtf8(c.name());
            out.writeUtf8(c.policyFamily());
            out.writeUtf8(c.cacheBucket());
            out.writeLong(r.cachedTokens());
            out.writeLong(r.costTokens());
            out.writeInt(r.requestedStrictPriority());
            RecordEncoder.overrides(out, r);
        });
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        record(RecordType.REJECTED, nowNs, 0L, request, error, (out, status, now, unused, r, e) -> {
            out.writeLong(r.lifecycleId());
            out.writeByte((byte) r.stage().ordinal());
            RecordEncoder.error(out, e, status);
            out.writeInt(r.classIndex());
        });
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        record(RecordType.DISPATCHED, nowNs, 0L, request, worker, (out, status, now, unused, r, w) -> {
            out.writeLong(r.lifecycleId());
            RecordEncoder.worker(out, w);
        });
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        record(RecordType.RESPONDING, nowNs, 0L, request, null, EncodingObserver::lifecycleOnly);
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        record(RecordType.COMPLETED, nowNs, contextTokens, request, null, (out, status, now, tokens, r, none) -> {
            out.writeLong(r.lifecycleId());
            out.writeLong(tokens);
        });
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        record(RecordType.ABORTED, nowNs, 0L, request, cause, (out, status, now, unused, r, c) -> {
            out.writeLong(r.lifecycleId());
            out.writeByte((byte) r.stage().ordinal());
            RecordEncoder.cause(out, c);
        });
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        record(RecordType.RETRIED, nowNs, 0L, request, null, EncodingObserver::lifecycleOnly);
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        record(RecordType.WORKER_JOINED, nowNs, maxNumBatchedTokens, worker, totalKvBlocks,
            (out, status, now, batched, w, blocks) -> {
                RecordEncoder.worker(out, w);
                out.writeLong(batched);
                out.writeLong(blocks.isPresent() ? blocks.getAsLong() : -1L);
            });
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        record(RecordType.WORKER_LEFT, nowNs, 0L, worker, null,
            (out, status, now, unused, w, none) -> RecordEncoder.worker(out, w));
    }

    @Override
    public void onWorkerLoad(long nowNs, WorkerLoad load) {
        record(RecordType.WORKER_LOAD, nowNs, 0L, load, null, (out, status, now, unused, l, none) -> {
            RecordEncoder.worker(out, l.worker());
            out.writeLong(l.usedKvBlocks());
            out.writeInt(l.runningRequests());
            out.writeInt(l.waitingRequests());
        });
    }

    @Override
    public void onPolicyReloaded(long nowNs, PolicyChange change) {
        record(RecordType.POLICY_RELOADED, nowNs, 0L, change, null, (out, status, now, unused, c, none) -> {
            out.writeUtf8(c.source());
            out.writeUtf8(c.policyText());
            out.write(JournalHeader.sha256(c.policyText()));
            out.writeBoolean(c.classifierReplaced());
            out.writeInt(c.requeued());
            out.writeInt(c.reassigned());
        });
    }

    @Override
    public void onKvEvent(long nowNs, KvEvent event) {
        record(RecordType.KV_EVENT, nowNs, 0L, event, null, (out, status, now, unused, e, none) -> kvEvent(out, e));
    }

    private static void kvEvent(Bytes<?> out, KvEvent event) {
        RecordEncoder.worker(out, event.worker());
        out.writeLong(event.eventId());
        switch (event) {
            case KvEvent.Stored stored -> {
                out.writeByte((byte) 0);
                out.writeBoolean(stored.hasParent());
                out.writeLong(stored.parentSequenceHash());
                longs(out, stored.sequenceHashes());
                longs(out, stored.localHashes());
            }
            case KvEvent.Removed removed -> {
                out.writeByte((byte) 1);
                longs(out, removed.sequenceHashes());
            }
            case KvEvent.Cleared cleared -> out.writeByte((byte) 2);
        }
    }

    private static void longs(Bytes<?> out, long[] values) {
        out.writeInt(values.length);
        for (long value : values) {
            out.writeLong(value);
        }
    }

    /** The fields of RESPONDING and RETRIED: the lifecycle id alone. */
    private static void lifecycleOnly(Bytes<?> out, int overloadStatus, long nowNs, long unused, RequestView request,
                                      Object none) {
        out.writeLong(request.lifecycleId());
    }
}
