package dev.sluice.core.replay;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalCapture;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Re-feeds a run's recorded inputs (arrivals with their ingress times, lifecycle reports, worker joins and
 * leaves) through a fresh manual router on a virtual clock with the recorded configuration, classification
 * answered from the recording ({@link ReplayClassifier}, which also wakes parked replays at their recorded decision),
 * and captures its records to compare with the recorded
 * ones ({@link DecisionComparison}). Each input is fed at its recorded scheduler time and the router is then run
 * until idle, as the demo's driver does; the clock also stops at every recorded decision time so that deadlines
 * fire when they did. A graceful drain is replayed where its first effect is in the journal ({@link #drainedBy}); the
 * arrivals a cut journal ends before deciding are not replayed but listed as such ({@link #undecided}). A policy
 * reload is replayed where it was recorded, with the recorded policy text (the classifier stays the recording).
 * Single-threaded.
 */
public final class ReplayVerifier {

    private static final String SHUTTING_DOWN = "shutting_down";

    private ReplayVerifier() {
    }

    /** The router configuration the run recorded. */
    static RouterPolicyConfig policy(JournalRecord.Header header) throws ConfigException {
        return header.policyText().isEmpty() ? RouterPolicyConfig.none()
            : RouterPolicyLoader.parse(header.policyText(), header.policySource());
    }

    /** The model's profile in a reloaded policy the run recorded. */
    static PolicyProfile reloaded(JournalRecord.Header header, JournalRecord.PolicyReloaded reload)
        throws ConfigException {
        return RouterPolicyLoader.parse(reload.policyText(), reload.policySource()).profileFor(header.model(),
            header.fallbackThresholdOption(), header.fallbackPolicy());
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
        RecordedInputs inputs = new RecordedInputs(run.records());
        Set<Long> undecided = undecided(run);
        long start = System.nanoTime();
        List<JournalRecord> replayed;
        boolean drained = false;
        try (ModelRouter router = ModelRouter.manual(context)) {
            for (JournalRecord record : run.records()) {
                if (record.timeNs() > clock.nanoTime()) {
                    clock.update(record.timeNs());
                }
                if (!drained && drainedBy(record)) {
                    // The drain itself is no record; its first effect marks where the live router took it.
                    drained = true;
                    router.drain();
                    router.runUntilIdle();
                }
                if (record instanceof JournalRecord.Arrived a) {
                    if (undecided.contains(a.lifecycleId())) {
                        continue;
                    }
                    classifier.expect(a.lifecycleId());
                } else if (record instanceof JournalRecord.Classified c) {
                    classifier.reached(c);
                } else if (record instanceof JournalRecord.PolicyReloaded p) {
                    // An input: the live router took it over at this point; the recording still classifies.
                    router.reloadPolicy(p.policySource(), p.policyText(), reloaded(header, p));
                }
                inputs.feed(router, record, record.lifecycleId());
                router.runUntilIdle();
            }
            replayed = new ArrayList<>(capture.records());
        }
        long wall = System.nanoTime() - start;
        long simulated = run.records().isEmpty() ? 0 : run.records().get(run.records().size() - 1).timeNs()
            - header.timeNs();
        return DecisionComparison.compare(run, replayed, inputs.replayToRecorded(), undecided, simulated, wall);
    }

    /**
     * True for the effects of a graceful drain ({@code ModelRouter.drain}, on SIGTERM): an arrival refused
     * {@code shutting_down}, or a request answered {@code shutting_down} and aborted (those waiting at the drain;
     * every live one when the router closes).
     */
    static boolean drainedBy(JournalRecord record) {
        return record instanceof JournalRecord.Refused f && SHUTTING_DOWN.equals(f.error().reason())
            || record instanceof JournalRecord.Aborted a && SHUTTING_DOWN.equals(a.causeMessage());
    }

    /**
     * The arrivals of a run cut short (no CLOSED record: {@code kill -9}, a crash) that have no record after their
     * arrival: the journal ends between the arrival and its decision, so there is nothing to replay them against.
     */
    static Set<Long> undecided(JournalRun run) {
        Set<Long> ids = new HashSet<>();
        List<JournalRecord> records = run.records();
        if (!records.isEmpty() && records.get(records.size() - 1) instanceof JournalRecord.Closed) {
            return ids;
        }
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            if (lifecycle.records().size() == 1 && lifecycle.records().get(0) instanceof JournalRecord.Arrived) {
                ids.add(lifecycle.id());
            }
        }
        return ids;
    }
}
