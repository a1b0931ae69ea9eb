package dev.sluice.transport.demo;

import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterSimulation;
import java.io.PrintStream;
import java.util.List;
import java.util.OptionalDouble;

/**
 * {@code sluice demo --in-process}: the demo's kind of traffic through the real admission core (classify, park,
 * queue with busy gating and deadlines, dispatch, lifecycle events) on the HTTP demo's simulated engines, all on a
 * virtual clock without HTTP, then a summary. Also the demo's classifier and the names a journal of it records.
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
        PolicyProfile profile = settings.policy().profileFor(MODEL, settings.fallbackThreshold(),
            settings.fallbackPolicy());
        ClusterContext cluster = cluster(settings.workers(), DemoFleet.engine(), profile, settings.classifier(),
            settings.seed(), settings.durationNs()).selector(settings.selector());
        WorkloadShape shape = new WorkloadShape(settings.durationNs(), 3.0 * settings.workers(),
            2 * settings.workers(), 5.0, settings.durationNs() / 3, settings.durationNs() / 2, 0.02, settings.seed());
        List<Arrival> arrivals = DemoWorkload.generate(shape, new BlockHasher(cluster.engine().blockSize()));

        out.println("sluice demo: in-process admission control on a simulated fleet (virtual clock)");
        out.printf("  fleet        %s%n", DemoFleet.describe(settings.workers(), cluster.engine()));
        out.printf("  policy       %s: classes %s%n", settings.policy().source(), HttpDemo.classNames(profile));
        if (settings.classifier() == null) {
            out.printf("  classifier   queue budget %d s from ingress; one turn per agent session, later turns park"
                + " up to %d s%n", QUEUE_BUDGET_NS / 1_000_000_000L, PARK_BUDGET_NS / 1_000_000_000L);
        } else {
            out.printf("  classifier   %s (from the policy file)%n",
                settings.policy().requestClassifier().orElseThrow().type());
        }
        out.printf("  workload     %d requests over %.0f s: chat %.0f/s, %d agent sessions, x%.0f burst from %.0f s"
                + " to %.0f s, %.0f%% of chat clients leave after 1 s (seed %d)%n",
            arrivals.size(), shape.durationNs() / 1e9, shape.chatPerSecond(), shape.sessions(), shape.burstFactor(),
            shape.burstStartNs() / 1e9, shape.burstEndNs() / 1e9, shape.leaveFraction() * 100, shape.seed());

        JournalWriter journal = settings.journal() == null ? null : JournalWriter.open(settings.journal(),
            JournalHeader.of(cluster.routerContext(), settings.policy().source(), settings.policyText(),
                classifierName(settings), settings.fallbackThreshold(), settings.fallbackPolicy()));
        DemoReport report;
        try (journal) {
            report = simulate(cluster, arrivals, journal);
        }
        out.println();
        report.print(out);
        if (journal != null) {
            printJournal(journal, out);
        }
        return report.balanced();
    }

    /**
     * The demo's router on {@code workers} simulated engines like {@code engine}: model {@link #MODEL}, the policy's
     * {@code profile}, the policy's classifier or (when {@code null}) the demo's own, every seed from {@code seed}.
     */
    static ClusterContext cluster(int workers, SimEngineContext engine, PolicyProfile profile,
                                  RequestClassifierFactory classifier, long seed, long durationNs) {
        return new ClusterContext().label(MODEL).model(MODEL).workers(workers).engine(engine).profile(profile)
            .classifier(classifier != null ? classifier : sessionTurnClassifier()).seed(seed).durationNs(durationNs);
    }

    /**
     * Plays {@code arrivals} on the one fleet simulator ({@link ClusterSimulation}: the real router in front of the
     * simulated engines, on a virtual clock) and reports per class what the router did; {@code journal} (or
     * {@code null}) sees every input and decision too. Runs on the calling thread.
     */
    static DemoReport simulate(ClusterContext cluster, List<Arrival> arrivals, SchedulerObserver journal) {
        ClassTally tally = new ClassTally(cluster.profile(), OverloadStatus.DEFAULT);
        cluster.observer(journal == null ? tally : CompositeObserver.of(journal, tally));
        return DemoReport.of(cluster.profile(), tally, ClusterSimulation.run(cluster, List.of(), arrivals));
    }

    static String classifierName(Settings settings) {
        return settings.classifier() == null ? DEMO_CLASSIFIER
            : settings.policy().requestClassifier().orElseThrow().type();
    }

    private static void printJournal(JournalWriter journal, PrintStream out) {
        String dir = HttpDemo.displayed(journal.directory());
        out.printf("  journal      %s: %d records written, %d lost%n", dir, journal.recordsWritten(),
            journal.recordsDropped());
        String sluice = HttpDemo.script();
        out.printf("               %s journal show %s --request chat-1%n", sluice, dir);
        out.printf("               %s journal stats %s   |   %s journal verify %s%n", sluice, dir, sluice, dir);
        out.printf("               %s replay %s --verify   |   %s replay %s --router-policy-config other.yaml%n",
            sluice, dir, sluice, dir);
    }
}
