package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
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
     * @param policyText the policy file's text, recorded in the journal's header.
     * @param journal    where to journal, or {@code null} for no journal.
     */
    public record Settings(long durationNs, int workers, long seed, RouterPolicyConfig policy,
                           RequestClassifierFactory classifier, WorkerSelectorFactory selector,
                           OptionalDouble fallbackThreshold, QueuePolicy fallbackPolicy, String policyText,
                           JournalContext journal) {
    }

    /** The name the journal records for the demo's own classifier; a replay recognises it. */
    public static final String DEMO_CLASSIFIER = "demo-session-turn";

    /** The model name the demo's router serves (a policy file may give it a profile of its own). */
    public static final String MODEL = "demo";
    /** The demo classifier's queue budget from ingress. */
    public static final long QUEUE_BUDGET_NS = 2_000_000_000L;
    /** How long the demo classifier parks a later turn of a busy session. */
    public static final long PARK_BUDGET_NS = 5_000_000_000L;
    /** The simulated engines' prefill rate and decode time per token. */
    public static final double PREFILL_TOKENS_PER_SECOND = 20_000;
    public static final long DECODE_NS_PER_TOKEN = 15_000_000L;

    private InProcessDemo() {
    }

    /**
     * The demo's own classifier ({@link #DEMO_CLASSIFIER}): a queue budget from ingress, one turn per agent session
     * with later turns parked. Each router gets its own instance, run on its scheduler thread.
     */
    public static RequestClassifierFactory sessionTurnClassifier() {
        return context -> new SessionTurnClassifier(QUEUE_BUDGET_NS, PARK_BUDGET_NS);
    }

    /**
     * Runs the demo and prints its summary; returns true when every request ended exactly once.
     *
     * @throws JournalException when the journal cannot be opened (the message names the directory and cause).
     */
    public static boolean run(Settings settings, PrintStream out) throws JournalException {
        FleetSimulation.Fleet fleet = new FleetSimulation.Fleet(settings.workers(), 2048, PREFILL_TOKENS_PER_SECOND,
            DECODE_NS_PER_TOKEN);
        DemoWorkload.Shape shape = new DemoWorkload.Shape(settings.durationNs(), 3.0 * settings.workers(),
            2 * settings.workers(), 5.0, settings.durationNs() / 3, settings.durationNs() / 2, 0.02, settings.seed());
        List<DemoWorkload.Arrival> arrivals = DemoWorkload.generate(shape);
        long queueBudgetNs = QUEUE_BUDGET_NS;
        long parkBudgetNs = PARK_BUDGET_NS;

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
        JournalWriter journal = settings.journal() == null ? null : JournalWriter.open(settings.journal(),
            JournalHeader.of(context, settings.policy().source(), settings.policyText(), classifierName(settings),
                settings.fallbackThreshold(), settings.fallbackPolicy()));
        if (journal != null) {
            context.observer(journal);
        }
        long start = System.nanoTime();
        DemoReport report;
        try (journal; ModelRouter router = ModelRouter.manual(context)) {
            report = new FleetSimulation(router, clock, fleet, arrivals, profile).run(settings.durationNs());
        }
        report.wallNs = System.nanoTime() - start;
        out.println();
        report.print(out);
        if (journal != null) {
            printJournal(journal, out);
        }
        return report.balanced();
    }

    static String classifierName(Settings settings) {
        return settings.classifier() == null ? DEMO_CLASSIFIER
            : settings.policy().requestClassifier().orElseThrow().type();
    }

    private static void printJournal(JournalWriter journal, PrintStream out) {
        String dir = displayed(journal.directory());
        out.printf("  journal      %s: %d records written, %d lost%n", dir, journal.recordsWritten(),
            journal.recordsDropped());
        out.printf("               scripts/sluice journal show %s --request chat-1%n", dir);
        out.printf("               scripts/sluice journal stats %s   |   scripts/sluice journal verify %s%n", dir, dir);
        out.printf("               scripts/sluice replay %s --verify   |   scripts/sluice replay %s"
            + " --router-policy-config other.yaml%n", dir, dir);
    }

    /** Relative to the working directory when it is inside it: shorter, and what the user typed. */
    private static String displayed(java.nio.file.Path dir) {
        java.nio.file.Path cwd = java.nio.file.Path.of("").toAbsolutePath();
        return dir.startsWith(cwd) ? cwd.relativize(dir).toString() : dir.toString();
    }

    private static String classNames(PolicyProfile profile) {
        StringBuilder names = new StringBuilder();
        for (var spec : profile.classes()) {
            names.append(names.isEmpty() ? "" : ", ").append(spec.name());
        }
        return names.toString();
    }
}
