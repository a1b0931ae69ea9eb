package dev.sluice.core.replay;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.journal.JournalCapture;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Re-feeds a run's recorded inputs (arrivals with their ingress times, lifecycle reports, worker joins and
 * leaves) through a fresh manual router on a virtual clock with the recorded configuration, classification
 * answered from the recording ({@link ReplayClassifier}, which also wakes parked replays at their recorded decision),
 * and captures its records to compare with the recorded
 * ones ({@link DecisionComparison}). Each input is fed at its recorded scheduler time and the router is then run
 * until idle, as the demo's driver does; the clock also stops at every recorded decision time so that deadlines
 * fire when they did. Single-threaded.
 */
public final class ReplayVerifier {
    private static final AdmissionListener IGNORE = AdmissionListener.of((w, id) -> { }, (e, id) -> { });

    private ReplayVerifier() {
    }

    /** The router configuration the run recorded. */
    static RouterPolicyConfig policy(JournalRecord.Header header) throws ConfigException {
        return header.policyText().isEmpty() ? RouterPolicyConfig.none()
            : RouterPolicyLoader.parse(header.policyText(), header.policySource());
    }

    /** Replays the run and compares; the header must be in the journal. */
    public static DecisionComparison.Result verify(JournalRun run) throws ConfigException {
        JournalRecord.Header header = run.header();
        if (header == null) {
            throw new IllegalArgumentException("run " + run.index() + " has no header (deleted by retention)");
        }
        PolicyProfile profile = policy(header).profileFor(header.model(), header.fallbackThresholdOption(),
            header.fallbackPolicy());
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(header.timeNs());
        ReplayClassifier classifier = new ReplayClassifier(run.lifecycles());
        JournalCapture capture = new JournalCapture(header.overloadStatus());
        RouterContext context = new RouterContext().model(header.model()).clock(clock).profile(profile)
            .classifierFactory(c -> classifier).overloadStatus(header.overloadStatus())
            .maxLiveRequests(header.maxLiveRequests()).maxDeferrals(header.maxDeferrals())
            .blockSize(header.blockSize()).observer(capture);
        Long2LongHashMap replayToRecorded = new Long2LongHashMap(-1);
        long start = System.nanoTime();
        List<JournalRecord> replayed;
        try (ModelRouter router = ModelRouter.manual(context)) {
            Long2LongHashMap recordedToReplay = new Long2LongHashMap(-1);
            for (JournalRecord record : run.records()) {
                if (record.timeNs() > clock.nanoTime()) {
                    clock.update(record.timeNs());
                }
                feed(router, classifier, record, recordedToReplay, replayToRecorded);
                drain(router);
            }
            replayed = new ArrayList<>(capture.records());
        }
        long wall = System.nanoTime() - start;
        long simulated = run.records().isEmpty() ? 0 : run.records().get(run.records().size() - 1).timeNs()
            - header.timeNs();
        return DecisionComparison.compare(run, replayed, replayToRecorded, simulated, wall);
    }

    /** Publishes a recorded input; a recorded decision feeds nothing (the clock has moved to its time). */
    private static void feed(ModelRouter router, ReplayClassifier classifier, JournalRecord record,
                             Long2LongHashMap recordedToReplay, Long2LongHashMap replayToRecorded) {
        long replayId = recordedToReplay.get(record.lifecycleId());
        switch (record) {
            case JournalRecord.Arrived a -> {
                classifier.expect(a.lifecycleId());
                long id = router.submit(Arrivals.request(a), a.request().ingressAt(), IGNORE);
                recordedToReplay.put(a.lifecycleId(), id);
                replayToRecorded.put(id, a.lifecycleId());
            }
            case JournalRecord.Refused f -> {
                long id = router.submit(Arrivals.request(f.request()), f.request().ingressAt(), IGNORE);
                recordedToReplay.put(f.lifecycleId(), id);
                replayToRecorded.put(id, f.lifecycleId());
            }
            case JournalRecord.Responding p -> router.responding(replayId);
            case JournalRecord.Completed c -> {
                if (c.contextTokens() >= 0) {
                    router.completed(replayId, c.contextTokens());
                } else {
                    router.completed(replayId);
                }
            }
            case JournalRecord.Aborted x -> router.aborted(replayId, null);
            case JournalRecord.Retried x -> router.retry(replayId);
            case JournalRecord.WorkerJoined w -> router.workerJoined(w.worker(), w.maxNumBatchedTokens(),
                w.totalKvBlocks() >= 0 ? java.util.OptionalLong.of(w.totalKvBlocks()) : java.util.OptionalLong.empty());
            case JournalRecord.WorkerLeft w -> router.workerLeft(w.worker());
            case JournalRecord.KvEventRecord k -> router.kvEvent(k.event());
            case JournalRecord.WorkerLoadRecord l -> router.workerLoad(l.load());
            case JournalRecord.Classified c -> classifier.reached(c);
            default -> {
            }
        }
    }

    private static void drain(ModelRouter router) {
        while (router.doWork() > 0) {
            // Everything due at this instant, as the recording's driver did.
        }
    }
}
