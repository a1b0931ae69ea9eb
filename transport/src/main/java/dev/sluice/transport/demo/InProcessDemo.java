package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import java.io.PrintStream;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The demo's main job until the HTTP frontend exists: a mixed workload through the real admission core (classify,
 * park, queue with busy gating and deadlines, dispatch, lifecycle events) on a simulated fleet and a virtual
 * clock, then a summary.
 */
public final class InProcessDemo {
    /**
     * The demo's settings.
     *
     * @param policy     the router-policy file in force (the bundled one unless the user gave another).
     * @param classifier the classifier factory the policy selects, or {@code null} for the demo's own.
     * @param selector   the worker selector the policy selects (the built-in one by default).
     * @param fallbackThreshold {@code --router-queue-threshold}, for a policy without a profile for the model.
     * @param fallbackPolicy    {@code --router-queue-policy}, likewise.
     */
    public record Settings(long durationNs, int workers, long seed, RouterPolicyConfig policy,
                           RequestClassifierFactory classifier, WorkerSelectorFactory selector,
                           OptionalDouble fallbackThreshold,
                           QueuePolicy fallbackPolicy) {
    }

    /** The model name the demo's router serves (a policy file may give it a profile of its own). */
    public static final String MODEL = "demo";

    private InProcessDemo() {
    }

    /** Runs the demo and prints its summary; returns true when every request ended exactly once. */
    public static boolean run(Settings settings, PrintStream out) {
        FleetSimulation.Fleet fleet = new FleetSimulation.Fleet(settings.workers(), 2048, 20_000, 15_000_000L);
        DemoWorkload.Shape shape = new DemoWorkload.Shape(settings.durationNs(), 3.0 * settings.workers(),
            2 * settings.workers(), 5.0, settings.durationNs() / 3, settings.durationNs() / 2, 0.02, settings.seed());
        List<DemoWorkload.Arrival> arrivals = DemoWorkload.generate(shape);
        long queueBudgetNs = 2_000_000_000L;
        long parkBudgetNs = 5_000_000_000L;

        out.println("sluice demo: in-process admission control on a simulated fleet (virtual clock)");
        out.printf("  fleet        %d workers, max_num_batched_tokens %d, prefill %.0f tokens/s, decode %d ms/token%n",
            fleet.workers(), fleet.maxNumBatchedTokens(), fleet.prefillTokensPerSecond(),
            fleet.decodeNsPerToken() / 1_000_000);
        PolicyProfile profile = settings.policy().profileFor(MODEL, settings.fallbackThreshold(),
            settings.fallbackPolicy());
        out.printf("  policy       %s: classes %s%n", settings.policy().source(), classNames(profile));
        if (settings.classifier() == null) {
            out.printf("  classifier   queue budget %d s from ingress; one turn per agent session, later turns park"
                + " up to %d s%n", queueBudgetNs / 1_000_000_000L, parkBudgetNs / 1_000_000_000L);
        } else {
            out.printf("  classifier   %s (from the policy file)%n",
                settings.policy().requestClassifier().orElseThrow().type());
        }
        out.printf("  workload     %d requests over %.0f s: chat %.0f/s, %d agent sessions, x%.0f burst from %.0f s"
                + " to %.0f s, %.0f%% of chat clients leave after 1 s (seed %d)%n",
            arrivals.size(), shape.durationNs() / 1e9, shape.chatPerSecond(), shape.sessions(), shape.burstFactor(),
            shape.burstStartNs() / 1e9, shape.burstEndNs() / 1e9, shape.leaveFraction() * 100, shape.seed());

        VirtualClock clock = new VirtualClock();
        RouterContext context = new RouterContext().model(MODEL).clock(clock).profile(profile)
            .workerSelector(settings.selector()).randomSeed(settings.seed())
            .classifierFactory(settings.classifier() != null ? settings.classifier()
                : c -> new SessionTurnClassifier(queueBudgetNs, parkBudgetNs));
        long start = System.nanoTime();
        DemoReport report;
        try (ModelRouter router = ModelRouter.manual(context)) {
            report = new FleetSimulation(router, clock, fleet, arrivals, profile).run(settings.durationNs());
        }
        report.wallNs = System.nanoTime() - start;
        out.println();
        report.print(out);
        return report.balanced();
    }

    private static String classNames(PolicyProfile profile) {
        StringBuilder names = new StringBuilder();
        for (var spec : profile.classes()) {
            names.append(names.isEmpty() ? "" : ", ").append(spec.name());
        }
        return names.toString();
    }
}
