package dev.sluice.perf.experiment;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterReport;
import dev.sluice.transport.simulation.ClusterSimulation;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Tenant fairness inside one policy class on the simulated fleet, on a virtual clock (a function of its seed). One
 * class queues while every worker is busy (active prefill above a quarter of its batch, so a dispatched request
 * shares few engine steps); three light tenants and one heavy tenant, offering ten times a light
 * tenant's load, send requests of the same size (Poisson arrivals). Each run is played with
 * {@code tenant_fairness: none} and {@code vtc}:
 * <ol>
 *   <li><b>Capacity</b>: the completion rate of the class overloaded; every load below is a share of it.</li>
 *   <li><b>backlogged</b>: each light tenant offers 30 % of capacity, the heavy one 300 %: every tenant wants more
 *       than an equal quarter. Target with VTC, and with VTC preempting over-served tenants: every tenant's share of
 *       the tokens served within 5 % of a quarter.</li>
 *   <li><b>light-load</b>: light tenants 10 % each, heavy 100 %. Target with VTC: a light tenant's queue-wait p99
 *       within twice what it is in <b>no-heavy</b> (the light tenants alone at the same load).</li>
 * </ol>
 * Alone the light tenants never queue, so with the heavy tenant saturating the fleet a light request waits at least
 * for the next free slot (the next dispatch of any request), which no order of the queue removes; each row shows
 * that wait's p99, and a further check bounds a light tenant's queue-wait p99 by twice its own. light-load is also
 * played as {@value #VTC_PREEMPTION} ({@code vtc: preempt_over_served: true}), as backlogged is: the light head
 * takes the worker of an unanswered heavy request, whose client sends it again after the Retry-After; target: the
 * light tenants' queue-wait p99 within twice no-heavy, with the heavy tenant's preemptions, retries, lost tokens and
 * share reported. Stateless.
 */
public final class FairnessExperiment {
    static final String HEAVY = "heavy";
    static final List<String> TENANTS = List.of(HEAVY, "light-a", "light-b", "light-c");
    private static final int PROMPT_TOKENS = 1000;
    private static final int ANSWER_TOKENS = 150;
    private static final double SHARE_TOLERANCE = 0.05;
    private static final double WAIT_FACTOR = 2.0;
    /** The fairness label of VTC with {@code preempt_over_served: true}. */
    static final String VTC_PREEMPTION = "vtc + preemption";

    /**
     * The run's knobs.
     *
     * @param workers  simulated workers (mocker defaults).
     * @param windowNs the load window of every run; its first quarter is warm-up, left out of every figure.
     * @param seed     workload, router and engine seed.
     */
    public record Settings(int workers, long windowNs, long seed) {
        public Settings {
            if (workers < 1 || windowNs <= 0) {
                throw new IllegalArgumentException("invalid fairness settings");
            }
        }
    }

    private FairnessExperiment() {
    }

    /** Capacity, then the three loads with and without fairness. */
    public static FairnessReport run(Settings s) {
        double capacity = capacity(s);
        List<FairnessReport.Row> rows = new ArrayList<>();
        for (String fairness : List.of("none", "vtc", VTC_PREEMPTION)) {
            rows.addAll(play(s, "backlogged", fairness, capacity, 0.3, 3.0));
        }
        for (String fairness : List.of("none", "vtc", VTC_PREEMPTION)) {
            rows.addAll(play(s, "light-load", fairness, capacity, 0.1, 1.0));
        }
        rows.addAll(play(s, "no-heavy", "vtc", capacity, 0.1, 0));
        return new FairnessReport(capacity, rows, checks(rows));
    }

    private static List<TargetCheck> checks(List<FairnessReport.Row> rows) {
        List<TargetCheck> checks = new ArrayList<>();
        checks.add(shareCheck(rows, "vtc"));
        double worstWait = 0;
        double worstTtft = 0;
        double worstBeyondSlot = 0;
        double slot = 0;
        for (FairnessReport.Row r : rows) {
            if (r.run().equals("light-load") && r.fairness().equals("vtc") && !r.tenant().equals(HEAVY)) {
                FairnessReport.Row alone = find(rows, "no-heavy", r.tenant());
                worstWait = Math.max(worstWait, r.waitP99Ms() / Math.max(alone.waitP99Ms(), 1.0));
                worstTtft = Math.max(worstTtft, r.ttftP99Ms() / Math.max(alone.ttftP99Ms(), 1.0));
                worstBeyondSlot = Math.max(worstBeyondSlot, r.waitP99Ms() / Math.max(r.slotP99Ms(), 1.0));
                slot = Math.max(slot, r.slotP99Ms());
            }
        }
        checks.add(new TargetCheck("light-load, vtc: light tenants' queue-wait p99 within 2x of no-heavy"
            + " (floor 1 ms)", worstWait <= WAIT_FACTOR, String.format(Locale.ROOT, "worst ratio %.2f; alone they"
            + " never queue, and with the heavy tenant saturating the fleet their p99 wait for the next free slot is"
            + " up to %.1f ms", worstWait, slot)));
        checks.add(new TargetCheck("light-load, vtc: light tenants' queue-wait p99 within 2x of their"
            + " wait for the next free slot", worstBeyondSlot <= WAIT_FACTOR, String.format(Locale.ROOT,
            "worst ratio %.2f", worstBeyondSlot)));
        checks.add(new TargetCheck("light-load, vtc: light tenants' TTFT p99 within 2x of no-heavy",
            worstTtft <= WAIT_FACTOR, String.format(Locale.ROOT, "worst ratio %.2f", worstTtft)));
        checks.add(preemptionCheck(rows));
        checks.add(shareCheck(rows, VTC_PREEMPTION));
        return checks;
    }

    /** backlogged with the given fairness: every tenant's share of the tokens served against an equal one. */
    private static TargetCheck shareCheck(List<FairnessReport.Row> rows, String fairness) {
        double equal = 1.0 / TENANTS.size();
        double worst = 0;
        long preempted = 0;
        StringBuilder shares = new StringBuilder();
        for (FairnessReport.Row r : rows) {
            if (r.run().equals("backlogged") && r.fairness().equals(fairness)) {
                worst = Math.max(worst, Math.abs(r.share() - equal) / equal);
                preempted += r.preempted();
                shares.append(String.format(Locale.ROOT, "%s %.1f %% ", r.tenant(), 100 * r.share()));
            }
        }
        String detail = shares.toString().trim() + String.format(Locale.ROOT, "; worst %.1f %% off", 100 * worst)
            + (fairness.equals(VTC_PREEMPTION) ? "; " + preempted + " preempted" : "");
        return new TargetCheck("backlogged, " + fairness + ": every tenant within 5 % of an equal share",
            worst <= SHARE_TOLERANCE, detail);
    }

    /** light-load with VTC and preemption of over-served tenants: the light tenants' wait against no-heavy. */
    private static TargetCheck preemptionCheck(List<FairnessReport.Row> rows) {
        double worst = 0;
        FairnessReport.Row heavy = null;
        for (FairnessReport.Row r : rows) {
            if (r.run().equals("light-load") && r.fairness().equals(VTC_PREEMPTION)) {
                if (r.tenant().equals(HEAVY)) {
                    heavy = r;
                } else {
                    worst = Math.max(worst, r.waitP99Ms() / Math.max(find(rows, "no-heavy", r.tenant()).waitP99Ms(),
                        1.0));
                }
            }
        }
        String detail = String.format(Locale.ROOT, "worst ratio %.2f; heavy: %d preempted, %d sent again, %.1f %% of"
            + " the tokens served", worst, heavy.preempted(), heavy.retries(), 100 * heavy.share());
        return new TargetCheck("light-load, " + VTC_PREEMPTION + ": light tenants' queue-wait p99 within 2x"
            + " of no-heavy (floor 1 ms)", worst <= WAIT_FACTOR, detail);
    }

    private static FairnessReport.Row find(List<FairnessReport.Row> rows, String run, String tenant) {
        for (FairnessReport.Row r : rows) {
            if (r.run().equals(run) && r.tenant().equals(tenant)) {
                return r;
            }
        }
        throw new IllegalStateException("no row " + run + "/" + tenant);
    }

    /** Completions per second of the class overloaded (rate doubled until the fleet falls behind). */
    static double capacity(Settings s) {
        long warmup = s.windowNs() / 4;
        double seconds = (s.windowNs() - warmup) / 1e9;
        double rate = 25.0 * s.workers();
        for (int attempt = 0; attempt < 5; attempt++, rate *= 2) {
            List<Arrival> arrivals = new ArrayList<>();
            long[] offered = new long[TENANTS.size()];
            arrivals(s, 0, rate, warmup, arrivals, offered);
            FairnessObserver o = new FairnessObserver(TENANTS, warmup, s.windowNs());
            simulate(s, "fairness-capacity", "none", o, arrivals);
            double served = o.servedTokens[0] / (double) (PROMPT_TOKENS + ANSWER_TOKENS) / seconds;
            if (served < 0.9 * rate) {
                return served;
            }
        }
        throw new IllegalStateException("the fleet kept up with every rate offered, up to " + rate / 2 + "/s");
    }

    private static List<FairnessReport.Row> play(Settings s, String run, String fairness, double capacity,
                                                 double lightShare, double heavyShare) {
        long warmup = s.windowNs() / 4;
        List<Arrival> arrivals = new ArrayList<>();
        long[] offered = new long[TENANTS.size()];
        for (int t = 0; t < TENANTS.size(); t++) {
            double share = t == 0 ? heavyShare : lightShare;
            if (share > 0) {
                arrivals(s, t, capacity * share, warmup, arrivals, offered);
            }
        }
        arrivals.sort((a, b) -> Long.compare(a.atNs(), b.atNs()));
        FairnessObserver o = new FairnessObserver(TENANTS, warmup, s.windowNs());
        simulate(s, "fairness-" + run + "-" + fairness.replace(" + ", "-"), fairness, o, arrivals);
        long total = 0;
        for (long served : o.servedTokens) {
            total += served;
        }
        List<FairnessReport.Row> rows = new ArrayList<>();
        for (int t = 0; t < TENANTS.size(); t++) {
            if (t == 0 && heavyShare == 0) {
                continue;
            }
            rows.add(new FairnessReport.Row(run, fairness, TENANTS.get(t), offered[t], o.servedTokens[t],
                total == 0 ? 0 : (double) o.servedTokens[t] / total, o.waitMs(t, 50), o.waitMs(t, 99),
                o.slotMs(t, 99), o.ttftMs(t, 99), o.preempted[t], o.lostTokens[t], o.retries[t]));
        }
        return rows;
    }

    /** One tenant's Poisson arrivals over the window; tokens of those arriving after the warm-up are offered. */
    private static void arrivals(Settings s, int tenant, double perSecond, long warmup, List<Arrival> out,
                                 long[] offered) {
        WorkloadRandom random = new WorkloadRandom(s.seed() * 31 + tenant);
        BlockHasher hasher = new BlockHasher(new ClusterContext().engine().blockSize());
        String name = TENANTS.get(tenant);
        long meanGapNs = Math.max(1, (long) (1e9 / perSecond));
        int n = 0;
        for (long at = random.exponentialNs(meanGapNs); at < s.windowNs(); at += random.exponentialNs(meanGapNs)) {
            int[] prompt = random.tokens(random.around(PROMPT_TOKENS));
            int answer = random.around(ANSWER_TOKENS);
            AdmissionRequest request = AdmissionRequest.builder(name + "-" + n++).promptTokens(prompt, hasher)
                .tenant(name).build();
            out.add(new Arrival(at, request, prompt, answer, 0));
            if (at >= warmup) {
                offered[tenant] += prompt.length + answer;
            }
        }
    }

    private static ClusterReport simulate(Settings s, String label, String fairness, FairnessObserver observer,
                                          List<Arrival> arrivals) {
        ClusterContext context = new ClusterContext().label(label).workers(s.workers()).profile(profile(fairness))
            .observer(observer).seed(s.seed()).durationNs(s.windowNs()).drainLimitNs(0);
        return ClusterSimulation.run(context, List.of(), arrivals);
    }

    /**
     * The policy: one class that queues while every worker is busy, with the given tenant fairness ({@code none},
     * {@code vtc}, or {@value #VTC_PREEMPTION}: VTC preempting over-served tenants).
     */
    static String yaml(String fairness) {
        String mode = fairness.equals(VTC_PREEMPTION) ? "vtc\n    vtc: {preempt_over_served: true}" : fairness;
        return """
            default_policy_family: shared
            uncached_isl_buckets:
              - min_tokens: 0
                bucket: all
            policy_classes:
              - name: shared_all
                policy_family: shared
                cache_bucket: all
                quantum: 4096
                prefill_busy_threshold_frac: 0.25
                tenant_fairness: %s
            """.formatted(mode);
    }

    private static PolicyProfile profile(String fairness) {
        try {
            return RouterPolicyLoader.parse(yaml(fairness), "fairness (" + fairness + ")")
                .profileFor(ClusterContext.DEFAULT_MODEL, OptionalDouble.empty(), QueuePolicy.FCFS);
        } catch (ConfigException e) {
            throw new IllegalStateException("the fairness policy does not load: " + e.getMessage(), e);
        }
    }
}
