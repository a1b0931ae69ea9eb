package dev.sluice.core.replay;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.journal.JournalCapture;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.CachedNanoClock;

/**
 * What another router configuration would have done to a recorded run, on the recorded service times: the
 * recorded inputs (arrivals at their ingress times, worker joins and leaves, the engines' KV-cache events and load
 * reports, clients that left before dispatch) are fed at their recorded times through a fresh manual router with
 * the given configuration and its real classifier; each dispatch is answered by the engine as the recording's
 * dispatch of that request was, re-timed from the new dispatch (responding, completion with its context tokens,
 * a client leaving mid-stream, a retry). Under the recorded configuration the dispatches come when they came, so
 * every decision is the recorded one, which {@link #compare} proves. What it cannot know it estimates and counts
 * ({@link Result}): a request the recording never served gets its class's median service times, and the engines'
 * feedback is the recorded placements'. How the recording's router was stepped per instant is not recorded;
 * {@link #check} tries both ways under the recorded configuration and keeps the one that reproduces it.
 * Single-threaded.
 */
public final class RetimedReplay {
    private static final String SHUTTING_DOWN = "shutting_down";

    /**
     * The replayed run.
     *
     * @param records          the replayed router's records, as a journal of it would hold them.
     * @param replayToRecorded replayed lifecycle id to recorded.
     * @param retimed          dispatches answered with the recording's service times of that request.
     * @param estimated        dispatches of requests the recording never served: their class's median times.
     * @param elsewhere        dispatches to another worker than the recording's (its engine feedback then describes
     *                         a placement this run did not make).
     * @param deferred         classifications the recording deferred (continuations run here while the virtual
     *                         clock stands still).
     */
    public record Result(JournalRun run, Stepping stepping, List<JournalRecord> records,
                         Long2LongHashMap replayToRecorded, long retimed, long estimated, long elsewhere,
                         long deferred, long wallNs) {
    }

    private enum Kind { FEED, STOP, REPORT }

    /**
     * How the recording's router was stepped at each instant. A router on a real clock runs one duty cycle per
     * instant (its next cycle has another time), so what one cycle's end hands its inbox (a wake-up caused by a
     * dispatch, or by an expiry in a journal of an older router) waits for a later instant; a simulation on a
     * virtual clock runs cycles until idle.
     */
    public enum Stepping {
        ONE_CYCLE("one duty cycle per instant (a router on a real clock)"),
        UNTIL_IDLE("duty cycles until idle at each instant (a router stepped on a virtual clock)");

        private final String description;

        Stepping(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** The replay under the recorded configuration that reproduces the recording best, and its comparison. */
    public record Check(Result replay, DecisionComparison.Result comparison) {
    }

    /** One input at {@code at}; ties in the order of the recording ({@code position}). */
    private record Input(long at, long position, Kind kind, JournalRecord record, long recordedLifecycle) {
    }

    private final JournalRun run;
    private final ServiceTimes service;
    private final PriorityQueue<Input> inputs = new PriorityQueue<>((a, b) -> a.at != b.at
        ? Long.compare(a.at, b.at) : Long.compare(a.position, b.position));
    private final RecordedInputs publisher = new RecordedInputs();
    private final Map<Long, Integer> dispatches = new HashMap<>();
    private long retimed;
    private long estimated;
    private long elsewhere;

    private RetimedReplay(JournalRun run) {
        this.run = run;
        this.service = ServiceTimes.of(run);
    }

    /**
     * Replays {@code run} under {@code policy} with the classifier {@code classifier} makes.
     *
     * @throws IllegalArgumentException if the run has no header (deleted by retention).
     */
    public static Result run(JournalRun run, RouterPolicyConfig policy, RequestClassifierFactory classifier,
                             Stepping stepping) {
        JournalRecord.Header header = run.header();
        if (header == null) {
            throw new IllegalArgumentException("run " + run.index() + " has no header (deleted by retention)");
        }
        return new RetimedReplay(run).replay(header, policy, classifier, stepping);
    }

    /**
     * Replays {@code run} under its recorded configuration both ways it may have been stepped and keeps the one
     * that reproduces it (the fewer differences; one cycle per instant on a tie): the model a what-if then uses.
     */
    public static Check check(JournalRun run, RequestClassifierFactory classifier) throws ConfigException {
        RouterPolicyConfig policy = recordedPolicy(run);
        Check best = null;
        for (Stepping stepping : Stepping.values()) {
            Result replay = run(run, policy, classifier, stepping);
            DecisionComparison.Result comparison = compare(replay);
            if (best == null || comparison.differences().size() < best.comparison().differences().size()) {
                best = new Check(replay, comparison);
            }
            if (comparison.differences().isEmpty()) {
                break;
            }
        }
        return best;
    }

    /** The recorded configuration, as {@link ReplayVerifier} reads it. */
    public static RouterPolicyConfig recordedPolicy(JournalRun run) throws ConfigException {
        return ReplayVerifier.policy(run.header());
    }

    /** Compares a replay under the recorded configuration with the recording, decision for decision. */
    public static DecisionComparison.Result compare(Result result) {
        long simulated = result.run().records().isEmpty() ? 0
            : result.run().records().getLast().timeNs() - result.run().header().timeNs();
        return DecisionComparison.compare(result.run(), result.records(), result.replayToRecorded(), Set.of(),
            simulated, result.wallNs());
    }

    private Result replay(JournalRecord.Header header, RouterPolicyConfig policy,
                          RequestClassifierFactory classifier, Stepping stepping) {
        PolicyProfile profile = policy.profileFor(header.model(), header.fallbackThresholdOption(),
            header.fallbackPolicy());
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(header.timeNs());
        JournalCapture capture = new JournalCapture(header.overloadStatus());
        RouterContext context = new RouterContext().model(header.model()).clock(clock).profile(profile)
            .classifierFactory(classifier).overloadStatus(header.overloadStatus())
            .maxLiveRequests(header.maxLiveRequests()).maxDeferrals(header.maxDeferrals())
            .blockSize(header.blockSize()).observer(capture);
        long deferred = schedule();
        long start = System.nanoTime();
        ModelRouter router = ModelRouter.manual(context);
        try {
            int seen = 0;
            Input input;
            while ((input = inputs.poll()) != null) {
                if (input.at() > clock.nanoTime()) {
                    clock.update(input.at());
                }
                feed(router, input);
                Input next = inputs.peek();
                if (next != null && next.at() <= clock.nanoTime()) {
                    // The live router took every input of an instant in one duty cycle: its ring first, then the
                    // wake-ups they caused, so a woken request saw all of them.
                    continue;
                }
                step(router, stepping);
                List<JournalRecord> so = capture.records();
                for (; seen < so.size(); seen++) {
                    if (so.get(seen) instanceof JournalRecord.Dispatched d) {
                        onDispatched(d);
                    }
                }
            }
        } finally {
            // Its close answers what is still live, as the recorded router's did: those records belong to the run.
            router.close();
        }
        return new Result(run, stepping, new ArrayList<>(capture.records()), publisher.replayToRecorded(), retimed,
            estimated,
            elsewhere, deferred, System.nanoTime() - start);
    }

    /** Queues every recorded input; a decision is a stop of the clock; returns the recorded deferrals. */
    private long schedule() {
        Map<Long, Boolean> dispatched = new HashMap<>();
        long deferred = 0;
        List<JournalRecord> records = run.records();
        for (int i = 0; i < records.size(); i++) {
            JournalRecord record = records.get(i);
            Kind kind = switch (record) {
                case JournalRecord.Arrived a -> Kind.FEED;
                case JournalRecord.Refused f -> Kind.FEED;
                case JournalRecord.WorkerJoined w -> Kind.FEED;
                case JournalRecord.WorkerLeft w -> Kind.FEED;
                case JournalRecord.KvEventRecord k -> Kind.FEED;
                case JournalRecord.WorkerLoadRecord l -> Kind.FEED;
                case JournalRecord.Dispatched d -> {
                    dispatched.put(d.lifecycleId(), true);
                    yield Kind.STOP;
                }
                // A client that left before dispatch leaves when it did; the router's own shutdown is its close.
                case JournalRecord.Aborted a -> dispatched.containsKey(a.lifecycleId())
                    || SHUTTING_DOWN.equals(a.causeMessage()) ? Kind.STOP : Kind.FEED;
                case JournalRecord.Classified c -> {
                    if (c.decision() == dev.sluice.core.api.Classification.Kind.DEFER) {
                        deferred++;
                    }
                    yield Kind.STOP;
                }
                default -> Kind.STOP;
            };
            if (!(record instanceof JournalRecord.Closed)) {
                inputs.add(new Input(record.timeNs(), i, kind, record, record.lifecycleId()));
            }
        }
        return deferred;
    }

    /** The replay dispatched a request: the engine answers it as the recording's matching dispatch was answered. */
    private void onDispatched(JournalRecord.Dispatched d) {
        long recorded = publisher.replayToRecorded().get(d.lifecycleId());
        if (recorded < 0) {
            return;
        }
        int nth = dispatches.merge(recorded, 1, Integer::sum);
        ServiceTimes.Segment segment = service.segment(recorded, nth);
        if (segment == null) {
            estimated++;
            for (ServiceTimes.Report report : service.estimate(recorded)) {
                inputs.add(new Input(d.timeNs() + report.afterNs(), Long.MAX_VALUE, Kind.REPORT, report.record(),
                    recorded));
            }
            return;
        }
        retimed++;
        if (!segment.worker().equals(d.worker())) {
            elsewhere++;
        }
        for (ServiceTimes.Report report : segment.reports()) {
            inputs.add(new Input(d.timeNs() + report.afterNs(), report.position(), Kind.REPORT, report.record(),
                recorded));
        }
    }

    private void feed(ModelRouter router, Input input) {
        if (input.kind() != Kind.STOP) {
            publisher.feed(router, input.record(), input.recordedLifecycle());
        }
    }

    /**
     * Runs the instant's duty cycles. A running continuation is waited for in wall time, the clock standing still,
     * and its result taken in the same instant: the recording's continuation took time this replay cannot know.
     */
    private static void step(ModelRouter router, Stepping stepping) {
        if (stepping == Stepping.ONE_CYCLE) {
            router.doWork();
        } else {
            router.runUntilIdle();
        }
        while (router.stats().deferralsRunning() > 0) {
            Thread.onSpinWait();
            router.runUntilIdle();
        }
    }
}
