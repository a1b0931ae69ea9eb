package dev.sluice.transport.demo;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP demo's workload for another program to send: the calls {@code sluice demo} sends for a fleet size,
 * duration and seed (the same generator and shape, {@link HttpWorkload}), sent open loop through real HTTP to a
 * frontend by the demo's client ({@link LoadDriver}). Immutable; {@link #send} may run more than once, to different
 * frontends, each time with the same calls at the same offsets.
 */
public final class DemoTraffic {
    private final WorkloadShape shape;
    private final List<Call> plan;

    private DemoTraffic(WorkloadShape shape, List<Call> plan) {
        this.shape = shape;
        this.plan = List.copyOf(plan);
    }

    /**
     * What the clients saw of one {@link #send}.
     *
     * @param sent      calls sent: all of them, unless the run was stopped.
     * @param completed calls answered to the end.
     * @param rejected  calls answered with an error status (the router's 429 when its queue budget ran out).
     * @param left      streams the client hung up on early, as the workload asks of a share of them.
     * @param failed    calls that broke: connection errors, error events mid-stream, streams cut short.
     * @param drained   whether every call had ended when {@link #send} returned.
     * @param failures  what broke the failed calls: each distinct reason with its count, most frequent first.
     */
    public record Outcome(long sent, long completed, long rejected, long left, long failed, boolean drained,
                          List<String> failures) {
        public Outcome {
            failures = List.copyOf(failures);
        }
    }

    /** The demo's traffic for {@code workers} workers over {@code duration} from {@code seed}, for {@code model}. */
    public static DemoTraffic of(int workers, Duration duration, long seed, String model) {
        WorkloadShape shape = shape(workers, duration.toNanos(), seed);
        return new DemoTraffic(shape, HttpWorkload.generate(shape, model));
    }

    /** The demo's shape: chat at 2/s per worker, two agent sessions per worker, a x5 burst in the middle sixth. */
    static WorkloadShape shape(int workers, long durationNs, long seed) {
        return new WorkloadShape(durationNs, 2.0 * workers, 2 * workers, 5.0, durationNs / 3, durationNs / 2, 0.05,
            seed);
    }

    /** How many calls a {@link #send} sends. */
    public int calls() {
        return plan.size();
    }

    /** One line: the calls, their window and seed, and what they are. */
    public String describe() {
        return String.format(Locale.ROOT, "%d calls over %.0f s, open loop (seed %d): chat %.0f/s on 3 shared system "
                + "prompts (60%% streaming, %.0f%% of streams disconnect early), %d agent sessions "
                + "(x-dynamo-session-id, class agent; a quarter of turns overlap), x%.0f burst from %.0f s to %.0f s",
            plan.size(), shape.durationNs() / 1e9, shape.seed(), shape.chatPerSecond(), shape.leaveFraction() * 100,
            shape.sessions(), shape.burstFactor(), shape.burstStartNs() / 1e9, shape.burstEndNs() / 1e9);
    }

    /**
     * Sends every call to the frontend at {@code baseUri} at its offset from now, then waits until all have ended
     * or {@code drainLimit} has passed, and stops those still running. A call whose connection is not made, or that
     * has not ended, {@code callLimit} after it was sent fails. Runs on the caller's thread.
     */
    public Outcome send(URI baseUri, Duration drainLimit, Duration callLimit) throws InterruptedException {
        ClientTally tally = new ClientTally();
        boolean drained;
        try (LoadDriver driver = new LoadDriver(baseUri, tally, callLimit, callLimit)) {
            long start = System.nanoTime();
            driver.send(plan, start, start + shape.durationNs());
            drained = driver.awaitEnded(drainLimit);
        }
        return new Outcome(tally.sent.get(), tally.completed.get(), tally.rejected.get(), tally.left.get(),
            tally.failed.get(), drained, tally.failureReasons());
    }

    List<Call> plan() {
        return plan;
    }
}
