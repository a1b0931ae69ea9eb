package dev.sluice.perf.experiment;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterSimulation;
import dev.sluice.transport.simulation.RouterAction;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Preempting sheddable work on the simulated fleet, on a virtual clock (a function of its seed). Two classes queue
 * while every worker is busy (active prefill above a quarter of its batch): {@code interactive}
 * ({@code preemption_priority: 1}, served first) and {@code bulk}. Bulk offers 120 % of the fleet's capacity
 * ({@link FairnessExperiment}'s, same request sizes), so the fleet is always busy with it; interactive offers 10 %.
 * Played as <b>alone</b> (interactive only), <b>not preemptible</b> and <b>preemptible</b> ({@code bulk} with
 * {@code preemptible: true}: a blocked interactive head takes the worker of a bulk request not yet answered, whose
 * client is told 503 with a Retry-After and sends it again once that has passed). Target: with preemption the
 * interactive queue-wait p99 within twice what it is alone (floor 1 ms), where without it the interactive request
 * waits for the next free slot. Bulk is overloaded, so every run ends with requests still queued: they count as
 * not completed. Stateless.
 */
public final class PreemptionExperiment {
    static final List<String> FAMILIES = List.of("interactive", "bulk");
    static final int PROMPT_TOKENS = 1000;
    static final int ANSWER_TOKENS = 150;
    private static final double WAIT_FACTOR = 2.0;

    private PreemptionExperiment() {
    }

    /** Capacity, then the three runs. */
    public static FlowReport run(FairnessExperiment.Settings s) {
        double capacity = FairnessExperiment.capacity(s);
        List<FlowReport.Row> rows = new ArrayList<>();
        rows.addAll(play(s, "alone", yaml(false), capacity, 0.0));
        rows.addAll(play(s, "not preemptible", yaml(false), capacity, 1.2));
        rows.addAll(play(s, "preemptible", yaml(true), capacity, 1.2));
        FlowReport.Row alone = FlowReport.find(rows, "alone", "interactive");
        FlowReport.Row without = FlowReport.find(rows, "not preemptible", "interactive");
        FlowReport.Row with = FlowReport.find(rows, "preemptible", "interactive");
        FlowReport.Row bulkWithout = FlowReport.find(rows, "not preemptible", "bulk");
        FlowReport.Row bulkWith = FlowReport.find(rows, "preemptible", "bulk");
        double ratio = with.waitP99Ms() / Math.max(alone.waitP99Ms(), 1.0);
        List<TargetCheck> checks = List.of(
            new TargetCheck("preemptible: interactive queue-wait p99 within 2x of alone (floor 1 ms)",
                ratio <= WAIT_FACTOR, String.format(Locale.ROOT, "ratio %.2f; %.1f ms without preemption",
                ratio, without.waitP99Ms())),
            new TargetCheck("preemptible: bulk completions within 10 % of not preemptible (the work"
                + " preemption throws away)", bulkWith.completed() >= 0.9 * bulkWithout.completed(),
                String.format(Locale.ROOT, "%d against %d; %d preempted, %d sent again",
                    bulkWith.completed(), bulkWithout.completed(), bulkWith.preempted(), bulkWith.retries())));
        return new FlowReport("Preempting sheddable work", String.format(Locale.ROOT,
            "fleet capacity %.1f requests/s; bulk offers 120 %%, interactive 10 %%", capacity), rows, checks);
    }

    private static List<FlowReport.Row> play(FairnessExperiment.Settings s, String run, String yaml,
                                             double capacity, double bulkShare) {
        List<Arrival> arrivals = new ArrayList<>();
        arrivals(s, "interactive", capacity * 0.1, arrivals);
        if (bulkShare > 0) {
            arrivals(s, "bulk", capacity * bulkShare, arrivals);
        }
        arrivals.sort((a, b) -> Long.compare(a.atNs(), b.atNs()));
        FlowObserver o = new FlowObserver(FAMILIES, s.windowNs() / 4, s.windowNs());
        simulate(s, "preemption-" + run, yaml, o, arrivals, List.of(), 0);
        return FlowReport.rows(run, FAMILIES, o, bulkShare > 0 ? 2 : 1);
    }

    /** One family's Poisson arrivals over the window, of the experiment's request size. */
    static void arrivals(FairnessExperiment.Settings s, String family, double perSecond, List<Arrival> out) {
        WorkloadRandom random = new WorkloadRandom(s.seed() * 31 + family.hashCode());
        BlockHasher hasher = new BlockHasher(new ClusterContext().engine().blockSize());
        long meanGapNs = Math.max(1, (long) (1e9 / perSecond));
        int n = 0;
        for (long at = random.exponentialNs(meanGapNs); at < s.windowNs(); at += random.exponentialNs(meanGapNs)) {
            int[] prompt = random.tokens(random.around(PROMPT_TOKENS));
            AdmissionRequest request = AdmissionRequest.builder(family + "-" + n++).promptTokens(prompt, hasher)
                .policyClass(family).build();
            out.add(new Arrival(at, request, prompt, random.around(ANSWER_TOKENS), 0));
        }
    }

    static void simulate(FairnessExperiment.Settings s, String label, String yaml, FlowObserver observer,
                         List<Arrival> arrivals, List<RouterAction> actions, long drainLimitNs) {
        ClusterContext context = new ClusterContext().label(label).workers(s.workers()).profile(profile(yaml))
            .observer(observer).seed(s.seed()).durationNs(s.windowNs()).drainLimitNs(drainLimitNs);
        ClusterSimulation.run(context, List.of(), arrivals, actions);
    }

    /** The two classes; bulk preemptible or not. */
    static String yaml(boolean preemptible) {
        return """
            default_policy_family: bulk
            uncached_isl_buckets:
              - min_tokens: 0
                bucket: all
            policy_classes:
              - name: interactive
                policy_family: interactive
                cache_bucket: all
                quantum: 1000000
                prefill_busy_threshold_frac: 0.25
                preemption_priority: 1
              - name: bulk
                policy_family: bulk
                cache_bucket: all
                quantum: 1000
                prefill_busy_threshold_frac: 0.25
                preemptible: %s
            """.formatted(preemptible);
    }

    static PolicyProfile profile(String yaml) {
        try {
            return RouterPolicyLoader.parse(yaml, "preemption experiment").profileFor(ClusterContext.DEFAULT_MODEL,
                OptionalDouble.empty(), QueuePolicy.FCFS);
        } catch (ConfigException e) {
            throw new IllegalStateException("the experiment's policy does not load: " + e.getMessage(), e);
        }
    }
}
