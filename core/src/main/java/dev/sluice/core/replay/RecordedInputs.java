package dev.sluice.core.replay;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.ModelRouter;
import java.util.List;
import java.util.OptionalLong;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;

/**
 * Publishes a journal's recorded inputs (arrivals, lifecycle reports, worker changes, KV events, load reports) to a
 * replaying router, and keeps which replayed lifecycle is which recorded one. A recorded decision is not an input
 * and publishes nothing. A preemption is a decision too: its {@code Aborted} (cause {@code preempted}) is not fed,
 * and the replaying router's host gives up exactly the requests the recording shows preempted (the live host refused
 * the others because their response had begun). One per replay; not thread-safe.
 */
final class RecordedInputs {
    private static final AdmissionListener IGNORE = AdmissionListener.of((w, id) -> { }, (e, id) -> { });
    private static final AdmissionListener GIVES_UP = new AdmissionListener() {
        @Override
        public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        }

        @Override
        public void onRejected(long lifecycleId, AdmissionError error) {
        }

        @Override
        public boolean onPreempted(long lifecycleId, AdmissionError error) {
            return true;
        }
    };

    private final LongHashSet preempted = new LongHashSet();
    private final boolean reproducesPreemptions;

    /**
     * For a retimed what-if run: no preemption is agreed, and a recorded preemption is fed as the victim's abort at
     * its recorded time (the victim then ends where it did).
     */
    RecordedInputs() {
        reproducesPreemptions = false;
    }

    /** For a replay of {@code records}: the lifecycles they show preempted are given up again. */
    RecordedInputs(List<JournalRecord> records) {
        reproducesPreemptions = true;
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Aborted a && preempted(a)) {
                preempted.add(a.lifecycleId());
            }
        }
    }

    /** True for the record of a preemption: the router's own abort with cause {@code preempted}. */
    static boolean preempted(JournalRecord.Aborted record) {
        return AdmissionError.class.getName().equals(record.causeType()) && "preempted".equals(record.causeMessage());
    }

    private final Long2LongHashMap recordedToReplay = new Long2LongHashMap(-1);
    private final Long2LongHashMap replayToRecorded = new Long2LongHashMap(-1);

    /**
     * Publishes {@code record}, a recorded input of the lifecycle {@code recordedLifecycle} (an arrival's own id for
     * an arrival; a report may be another request's, replayed for this one).
     */
    void feed(ModelRouter router, JournalRecord record, long recordedLifecycle) {
        long replayId = recordedToReplay.get(recordedLifecycle);
        switch (record) {
            case JournalRecord.Arrived a -> submitted(a.lifecycleId(), router.submit(Arrivals.request(a),
                a.request().ingressAt(), preempted.contains(a.lifecycleId()) ? GIVES_UP : IGNORE));
            case JournalRecord.Refused f -> submitted(f.lifecycleId(), router.submit(Arrivals.request(f.request()),
                f.request().ingressAt(), IGNORE));
            case JournalRecord.Responding p -> router.responding(replayId);
            case JournalRecord.Completed c -> {
                if (c.contextTokens() >= 0) {
                    router.completed(replayId, c.contextTokens());
                } else {
                    router.completed(replayId);
                }
            }
            case JournalRecord.Aborted x -> {
                if (!reproducesPreemptions || !preempted(x)) {
                    router.aborted(replayId, null);
                }
            }
            case JournalRecord.Retried x -> router.retry(replayId);
            case JournalRecord.WorkerJoined w -> router.workerJoined(w.worker(), w.maxNumBatchedTokens(),
                w.totalKvBlocks() >= 0 ? OptionalLong.of(w.totalKvBlocks()) : OptionalLong.empty());
            case JournalRecord.WorkerLeft w -> router.workerLeft(w.worker());
            case JournalRecord.KvEventRecord k -> router.kvEvent(k.event());
            case JournalRecord.WorkerLoadRecord l -> router.workerLoad(l.load());
            default -> {
            }
        }
    }

    private void submitted(long recorded, long replayed) {
        recordedToReplay.put(recorded, replayed);
        replayToRecorded.put(replayed, recorded);
    }

    /** Replayed lifecycle id to recorded, -1 for none. */
    Long2LongHashMap replayToRecorded() {
        return replayToRecorded;
    }
}
