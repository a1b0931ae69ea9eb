package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterReport;
import dev.sluice.transport.simulation.ClusterSimulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * Scheduling quality of the policy queues on the simulated fleet, on a virtual clock (a function of its seed):
 * <ol>
 *   <li><b>Capacity.</b> The families' mix, unqueued, offered at a rate the fleet cannot keep up with (doubled from
 *       25 requests/s per worker until completions fall below 90 % of it); capacity is the completion rate after
 *       the warm-up. Every other load is a percentage of it.</li>
 *   <li><b>DRR share.</b> The queued policy at {@code shareLoadPercent} (every family offered more than its share);
 *       each family's dispatched scheduling cost (the DRR charge, here its prompt tokens) after the warm-up, against
 *       its quantum's share.</li>
 *   <li><b>Deadline misses.</b> The queued policy at {@code deadlineLoadPercent}: per family, how many of the
 *       requests that entered the queue (each with {@code due_at} from {@code queue-budget}) expired there or were
 *       dispatched after it.</li>
 *   <li><b>Goodput under a ramp.</b> The offered load steps through {@code rampPercent}, one step per
 *       {@code stepNs}, once with the queued policy and once unqueued; per step (by arrival), the requests that
 *       completed with TTFT within {@code sloNs}, rejections and TTFT percentiles.</li>
 * </ol>
 * Stateless.
 */
public final class SchedulingQualityExperiment {
    private static final double FIRST_RATE_PER_WORKER = 25;
    private static final int CALIBRATION_ATTEMPTS = 5;

    /**
     * The run's knobs.
     *
     * @param workers             simulated workers (mocker defaults).
     * @param classes             the families, their weights and traffic.
     * @param policy              the queued policy's threshold, limit and deadline.
     * @param sloNs               the TTFT objective of goodput.
     * @param windowNs            load window of the capacity, DRR and deadline runs.
     * @param warmupNs            start of those windows left out of capacity and shares.
     * @param stepNs              length of a ramp step.
     * @param rampPercent         the ramp's steps, % of capacity.
     * @param shareLoadPercent    offered load of the DRR run, % of capacity.
     * @param deadlineLoadPercent offered load of the deadline run, % of capacity.
     * @param drainLimitNs        how long a ramp or deadline run may go on after its window (then it is cut).
     * @param seed                workload, router and engine seed.
     */
    public record Settings(int workers, List<QualityClass> classes, QualityPolicy policy, long sloNs, long windowNs,
                           long warmupNs, long stepNs, double[] rampPercent, double shareLoadPercent,
                           double deadlineLoadPercent, long drainLimitNs, long seed) {
        public Settings {
            classes = List.copyOf(classes);
            Objects.requireNonNull(policy, "policy");
            rampPercent = rampPercent.clone();
            if (workers < 1 || classes.isEmpty() || sloNs <= 0 || warmupNs < 0 || windowNs <= warmupNs
                || stepNs <= 0 || rampPercent.length == 0 || !(shareLoadPercent > 0) || !(deadlineLoadPercent > 0)
                || drainLimitNs < 0) {
                throw new IllegalArgumentException("invalid scheduling-quality settings");
            }
        }

        /**
         * The defaults of {@code sluice simulate quality}: premium, standard and batch at weights 3:2:1, where
         * batch prompts are three times as long (so equal token rates are offered at 3:3:1 requests); TTFT
         * objective 2 s, busy threshold 1.0 × {@code max_num_batched_tokens}, 16 queued requests per class and
         * worker, {@code max_wait_ms} 1000; the ramp 50 % to 200 %.
         */
        public static Settings defaults(int workers, long windowNs, long stepNs, long seed) {
            List<QualityClass> classes = List.of(new QualityClass("premium", 3000, 3, 1000, 150),
                new QualityClass("standard", 2000, 3, 1000, 150), new QualityClass("batch", 1000, 1, 3000, 150));
            return new Settings(workers, classes, new QualityPolicy(1.0, 16, 1000), 2_000_000_000L, windowNs,
                windowNs / 4, stepNs, new double[] {50, 75, 100, 125, 150, 200}, 300, 150,
                600_000_000_000L, seed);
        }
    }

    private SchedulingQualityExperiment() {
    }

    /** Runs the four parts in order. */
    public static QualityReport run(Settings s) {
        long wallStart = System.nanoTime();
        List<ClusterReport> runs = new ArrayList<>();
        double[] capacity = capacity(s, runs);
        List<QualityReport.ShareRow> shares = shares(s, capacity[0], runs);
        List<QualityReport.DeadlineRow> deadlines = deadlines(s, capacity[0], runs);
        List<QualityReport.RampRow> ramp = new ArrayList<>(ramp(s, capacity[0], true, runs));
        ramp.addAll(ramp(s, capacity[0], false, runs));
        boolean balanced = runs.stream().allMatch(ClusterReport::balanced);
        return new QualityReport(s, capacity[0], capacity[1], shares, deadlines, ramp, balanced,
            System.nanoTime() - wallStart);
    }

    /** {completions per second, the rate offered}. */
    private static double[] capacity(Settings s, List<ClusterReport> runs) {
        double rate = FIRST_RATE_PER_WORKER * s.workers();
        double seconds = (s.windowNs() - s.warmupNs()) / 1e9;
        for (int attempt = 0; attempt < CALIBRATION_ATTEMPTS; attempt++, rate *= 2) {
            QualityObserver o = simulate(s, false, "capacity", new StepWorkload(s.classes(), s.windowNs(),
                new double[] {rate}, s.seed()), 0, runs);
            double completed = o.windowCompletions / seconds;
            if (completed < 0.9 * rate) {
                return new double[] {completed, rate};
            }
        }
        throw new IllegalStateException("the fleet kept up with every rate offered, up to " + rate / 2 + "/s");
    }

    private static List<QualityReport.ShareRow> shares(Settings s, double capacity, List<ClusterReport> runs) {
        QualityObserver o = simulate(s, true, "drr-share", new StepWorkload(s.classes(), s.windowNs(),
            new double[] {capacity * s.shareLoadPercent() / 100}, s.seed()), 0, runs);
        long quanta = 0;
        long tokens = 0;
        long requests = 0;
        for (int f = 0; f < s.classes().size(); f++) {
            quanta += s.classes().get(f).quantum();
            tokens += o.windowCostTokens[f];
            requests += o.windowDispatches[f];
        }
        List<QualityReport.ShareRow> rows = new ArrayList<>();
        for (int f = 0; f < s.classes().size(); f++) {
            QualityClass c = s.classes().get(f);
            rows.add(new QualityReport.ShareRow(c.name(), c.quantum(), (double) c.quantum() / quanta,
                tokens == 0 ? 0 : (double) o.windowCostTokens[f] / tokens, o.windowCostTokens[f],
                o.windowDispatches[f], requests == 0 ? 0 : (double) o.windowDispatches[f] / requests));
        }
        return rows;
    }

    private static List<QualityReport.DeadlineRow> deadlines(Settings s, double capacity, List<ClusterReport> runs) {
        QualityObserver o = simulate(s, true, "deadlines", new StepWorkload(s.classes(), s.windowNs(),
            new double[] {capacity * s.deadlineLoadPercent() / 100}, s.seed()), s.drainLimitNs(), runs);
        List<QualityReport.DeadlineRow> rows = new ArrayList<>();
        for (int f = 0; f < s.classes().size(); f++) {
            ClassCounters c = o.family(f);
            rows.add(new QualityReport.DeadlineRow(s.classes().get(f).name(), c.submitted, c.queueRejected,
                c.enqueued, c.expired, c.dispatchedLate, c.completed, ms(o.waitUs[f], 50), ms(o.waitUs[f], 99)));
        }
        return rows;
    }

    private static List<QualityReport.RampRow> ramp(Settings s, double capacity, boolean queued,
                                                    List<ClusterReport> runs) {
        double[] rates = new double[s.rampPercent().length];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = capacity * s.rampPercent()[i] / 100;
        }
        QualityObserver o = simulate(s, queued, queued ? "ramp-queued" : "ramp-unqueued",
            new StepWorkload(s.classes(), s.stepNs(), rates, s.seed()), s.drainLimitNs(), runs);
        List<QualityReport.RampRow> rows = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            ClassCounters c = o.step(i, new ClassCounters());
            rows.add(new QualityReport.RampRow(s.rampPercent()[i], queued, c.submitted, c.completed, c.good,
                c.rejected(), s.stepNs() / 1e9, ms(o.ttftUs[i], 50), ms(o.ttftUs[i], 99)));
        }
        return rows;
    }

    private static QualityObserver simulate(Settings s, boolean queued, String label, StepWorkload workload,
                                            long drainLimitNs, List<ClusterReport> runs) {
        QualityPolicy.Resolved policy = s.policy().resolve(s.classes(), queued);
        QualityObserver observer = new QualityObserver(s.classes(), workload.stepNs(),
            workload.requestsPerSecond().length, s.sloNs(), s.warmupNs(), workload.durationNs());
        ClusterContext context = new ClusterContext().label(label).workers(s.workers()).profile(policy.profile())
            .classifier(policy.classifier()).observer(observer).seed(s.seed()).durationNs(workload.durationNs())
            .drainLimitNs(drainLimitNs);
        runs.add(ClusterSimulation.run(context, workload.generate()));
        return observer;
    }

    private static double ms(Histogram us, double percentile) {
        return us.getTotalCount() == 0 ? 0.0 : us.getValueAtPercentile(percentile) / 1000.0;
    }
}
