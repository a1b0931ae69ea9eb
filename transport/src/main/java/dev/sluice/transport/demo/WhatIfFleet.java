package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.ClusterContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * The demo's simulated fleet for other callers: runs given arrivals through the real router in front of the
 * simulated engines, under a given policy on a virtual clock, and reports per class. {@code sluice replay
 * --router-policy-config} uses it to show what another configuration would have done to recorded traffic.
 * Single-threaded.
 */
public final class WhatIfFleet {
    /** Seeds the router and the engines: both configurations see the same fleet. */
    private static final long SEED = 42;

    /** The fleet as recorded: its size and the engines' {@code max_num_batched_tokens}; otherwise the demo's. */
    public record Fleet(int workers, long maxNumBatchedTokens) {
        SimEngineContext engine() {
            return DemoFleet.engine().maxNumBatchedTokens((int) Math.min(Integer.MAX_VALUE, maxNumBatchedTokens));
        }
    }

    /** One class's outcome; histograms in milliseconds. */
    public record ClassResult(long arrived, long dispatched, long rejected, Histogram queueWaitMs, Histogram ttftMs) {
    }

    /** Per class, in the profile's order, plus the rejection reasons and the time taken. */
    public record Result(Map<String, ClassResult> classes, Map<String, Long> rejections, long simulatedNs,
                         long wallNs) {
    }

    private WhatIfFleet() {
    }

    /**
     * @param classifier the policy's classifier factory, or {@code null} for the demo's own classifier.
     */
    public static Result run(RouterPolicyConfig policy, RequestClassifierFactory classifier,
                             OptionalDouble fallbackThreshold, QueuePolicy fallbackPolicy, Fleet fleet,
                             List<Arrival> arrivals, long durationNs) {
        PolicyProfile profile = policy.profileFor(InProcessDemo.MODEL, fallbackThreshold, fallbackPolicy);
        ClusterContext cluster = InProcessDemo.cluster(fleet.workers(), fleet.engine(), profile, classifier, SEED,
            durationNs);
        DemoReport report = InProcessDemo.simulate(cluster, arrivals, null);
        Map<String, ClassResult> classes = new LinkedHashMap<>();
        report.byClass.forEach((name, line) -> classes.put(name, new ClassResult(line.arrived, line.dispatched,
            line.rejected, line.queueWaitMs, line.ttftMs)));
        return new Result(classes, report.rejections, report.simulation.endNs(), report.simulation.wallNs());
    }
}
