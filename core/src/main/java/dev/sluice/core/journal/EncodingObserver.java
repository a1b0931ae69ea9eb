package dev.sluice.core.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.SchedulerObserver;
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

    private Bytes<?> start(RecordType type, long nowNs) {
        lastNs = nowNs;
        Bytes<?> out = begin();
        if (out == null) {
            return null;
        }
        try {
            out.writeByte(type.code());
            out.writeLong(nowNs);
            return out;
        } catch (RuntimeException | InternalError e) {
            abandon(e);
            return null;
        }
    }

    @Override
    public void onArrived(long nowNs, RequestView request) {
        Bytes<?> out = start(RecordType.ARRIVED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            RecordEncoder.request(out, request);
            RecordEncoder.promptBlocks(out, request);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onRefused(long nowNs, long lifecycleId, AdmissionRequest request, AdmissionError error) {
        Bytes<?> out = start(RecordType.REFUSED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(lifecycleId);
            RecordEncoder.request(out, nowNs, request);
            RecordEncoder.error(out, error, overloadStatus);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onClassified(long nowNs, RequestView request, Classification.Kind decision) {
        Bytes<?> out = start(RecordType.CLASSIFIED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            out.writeByte((byte) decision.ordinal());
            RecordEncoder.overrides(out, request);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onEnqueued(long nowNs, RequestView request, PolicyClassSpec policyClass) {
        Bytes<?> out = start(RecordType.ENQUEUED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            out.writeInt(request.classIndex());
            out.writeUtf8(policyClass.name());
            out.writeUtf8(policyClass.policyFamily());
            out.writeUtf8(policyClass.cacheBucket());
            out.writeLong(request.cachedTokens());
            out.writeLong(request.costTokens());
            out.writeInt(request.requestedStrictPriority());
            RecordEncoder.overrides(out, request);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onRejected(long nowNs, RequestView request, AdmissionError error) {
        Bytes<?> out = start(RecordType.REJECTED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            out.writeByte((byte) request.stage().ordinal());
            RecordEncoder.error(out, error, overloadStatus);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onDispatched(long nowNs, RequestView request, WorkerWithDpRank worker) {
        Bytes<?> out = start(RecordType.DISPATCHED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            RecordEncoder.worker(out, worker);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onResponding(long nowNs, RequestView request) {
        lifecycleOnly(RecordType.RESPONDING, nowNs, request);
    }

    @Override
    public void onCompleted(long nowNs, RequestView request, long contextTokens) {
        Bytes<?> out = start(RecordType.COMPLETED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            out.writeLong(contextTokens);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onAborted(long nowNs, RequestView request, Throwable cause) {
        Bytes<?> out = start(RecordType.ABORTED, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            out.writeByte((byte) request.stage().ordinal());
            RecordEncoder.cause(out, cause);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onRetried(long nowNs, RequestView request) {
        lifecycleOnly(RecordType.RETRIED, nowNs, request);
    }

    @Override
    public void onWorkerJoined(long nowNs, WorkerWithDpRank worker, long maxNumBatchedTokens,
                               OptionalLong totalKvBlocks) {
        Bytes<?> out = start(RecordType.WORKER_JOINED, nowNs);
        if (out == null) {
            return;
        }
        try {
            RecordEncoder.worker(out, worker);
            out.writeLong(maxNumBatchedTokens);
            out.writeLong(totalKvBlocks.isPresent() ? totalKvBlocks.getAsLong() : -1L);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onWorkerLeft(long nowNs, WorkerWithDpRank worker) {
        Bytes<?> out = start(RecordType.WORKER_LEFT, nowNs);
        if (out == null) {
            return;
        }
        try {
            RecordEncoder.worker(out, worker);
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    @Override
    public void onKvEvent(long nowNs, KvEvent event) {
        Bytes<?> out = start(RecordType.KV_EVENT, nowNs);
        if (out == null) {
            return;
        }
        try {
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
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }

    private static void longs(Bytes<?> out, long[] values) {
        out.writeInt(values.length);
        for (long value : values) {
            out.writeLong(value);
        }
    }

    private void lifecycleOnly(RecordType type, long nowNs, RequestView request) {
        Bytes<?> out = start(type, nowNs);
        if (out == null) {
            return;
        }
        try {
            out.writeLong(request.lifecycleId());
            commit();
        } catch (RuntimeException | InternalError e) {
            abandon(e);
        }
    }
}
