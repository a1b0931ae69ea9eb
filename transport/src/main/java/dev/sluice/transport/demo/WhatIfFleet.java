package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * The demo's simulated fleet for other callers: runs given arrivals through a manual router under a given policy
 * on a virtual clock, and reports per class. {@code sluice replay --router-policy-config} uses it to show what
 * another configuration would have done to recorded traffic. Single-threaded.
 */
public final class WhatIfFleet {
    /** One request to submit at {@code atNs}; the client leaves {@code leavesAfterNs} later when that is > 0. */
    public record Arrival(long atNs, AdmissionRequest request, int outputTokens, long leavesAfterNs) {
    }

    /** The simulated engines, as the demo models them. */
    public record Fleet(int workers, long maxNumBatchedTokens, double prefillTokensPerSecond, long decodeNsPerToken) {
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
        List<DemoWorkload.Arrival> work = new ArrayList<>(arrivals.size());
        for (Arrival a : arrivals) {
            work.add(new DemoWorkload.Arrival(a.atNs(), a.request(), a.outputTokens(), a.leavesAfterNs()));
        }
        VirtualClock clock = new VirtualClock();
        RouterContext context = new RouterContext().model(InProcessDemo.MODEL).clock(clock).profile(profile)
            .classifierFactory(classifier != null ? classifier
                : c -> new SessionTurnClassifier(InProcessDemo.QUEUE_BUDGET_NS, InProcessDemo.PARK_BUDGET_NS));
        long start = System.nanoTime();
        DemoReport report;
        try (ModelRouter router = ModelRouter.manual(context)) {
            report = new FleetSimulation(router, clock, new FleetSimulation.Fleet(fleet.workers(),
                fleet.maxNumBatchedTokens(), fleet.prefillTokensPerSecond(), fleet.decodeNsPerToken()), work, profile)
                .run(durationNs);
        }
        Map<String, ClassResult> classes = new LinkedHashMap<>();
        report.byClass.forEach((name, line) -> classes.put(name, new ClassResult(line.arrived, line.dispatched,
            line.rejected, line.queueWaitMs, line.ttftMs)));
        return new Result(classes, report.rejections, report.simulatedNs, System.nanoTime() - start);
    }
}
