package dev.sluice.perf.experiment;

import java.util.List;

/**
 * What one scheduling-quality run measured (see {@link SchedulingQualityExperiment} for the definitions).
 * Immutable.
 *
 * @param settings          the run's knobs.
 * @param capacityPerSecond the fleet's measured capacity: requests completed per second while saturated.
 * @param calibrationRate   the rate offered to measure it (requests/s).
 * @param shares            DRR service shares, one row per family.
 * @param deadlines         deadline misses under overload, one row per family.
 * @param ramp              goodput under the ramp, one row per step, with the policy queues then without.
 * @param balanced          every simulated request ended exactly once and the routers ended empty.
 * @param wallNs            wall-clock time of the whole experiment.
 */
public record QualityReport(SchedulingQualityExperiment.Settings settings, double capacityPerSecond,
                            double calibrationRate, List<ShareRow> shares, List<DeadlineRow> deadlines,
                            List<RampRow> ramp, boolean balanced, long wallNs) {
    /**
     * One family's service in the DRR run's window.
     *
     * @param family     the family.
     * @param quantum    its quantum.
     * @param configured its quantum over the sum of quanta.
     * @param achieved   its dispatched scheduling cost over everyone's (tokens, the DRR charge).
     * @param tokens     its dispatched scheduling cost.
     * @param requests   its dispatches.
     * @param requestShare its dispatches over everyone's.
     */
    public record ShareRow(String family, long quantum, double configured, double achieved, long tokens,
                           long requests, double requestShare) {
        /** |achieved − configured| / configured. */
        public double relativeError() {
            return Math.abs(achieved - configured) / configured;
        }
    }

    /**
     * One family's requests in the deadline run.
     *
     * @param family        the family.
     * @param submitted     requests that arrived.
     * @param queueRejected rejected at enqueue by the class's queue limit (before waiting).
     * @param enqueued      entered the queue, each with {@code due_at}.
     * @param expired       rejected with {@code DeadlineExceeded} while queued.
     * @param late          dispatched after their {@code due_at}.
     * @param completed     completed.
     * @param waitP50Ms     queue wait median of the dispatched, ms.
     * @param waitP99Ms     queue wait 99th percentile of the dispatched, ms.
     */
    public record DeadlineRow(String family, long submitted, long queueRejected, long enqueued, long expired,
                              long late, long completed, double waitP50Ms, double waitP99Ms) {
        /** Of the requests that entered the queue with a deadline, the fraction that missed it. */
        public double missRate() {
            return enqueued == 0 ? 0 : (double) (expired + late) / enqueued;
        }
    }

    /**
     * One ramp step of one variant; requests count in the step they arrived in.
     *
     * @param loadPercent   offered load, % of the measured capacity.
     * @param queued        with the policy queues (else everything goes straight to the engines).
     * @param offered       requests that arrived in the step.
     * @param completed     of them, completed.
     * @param good          of them, completed with TTFT within the objective.
     * @param rejected      of them, rejected (queue limit or deadline).
     * @param stepSeconds   the step's length.
     * @param ttftP50Ms     TTFT median over those that got a first token, ms.
     * @param ttftP99Ms     TTFT 99th percentile, ms.
     */
    public record RampRow(double loadPercent, boolean queued, long offered, long completed, long good, long rejected,
                          double stepSeconds, double ttftP50Ms, double ttftP99Ms) {
        /** Good completions per second of the step. */
        public double goodputPerSecond() {
            return good / stepSeconds;
        }

        /** Arrivals per second of the step. */
        public double offeredPerSecond() {
            return offered / stepSeconds;
        }
    }

    /** The largest relative error of an achieved DRR share. */
    public double maxShareError() {
        double max = 0;
        for (ShareRow row : shares) {
            max = Math.max(max, row.relativeError());
        }
        return max;
    }
}
