package dev.sluice.perf.experiment;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.RouterAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Reloading the policy under load on the simulated fleet, on a virtual clock: {@link PreemptionExperiment}'s two
 * classes, bulk offering 100 % of capacity and interactive 10 %, so a backlog builds over the window; played without
 * reloads and with {@value #RELOADS} reloads spread over the load window, alternating between the policy and a
 * variant (bulk's quantum doubled, its busy threshold raised), each applied between two duty cycles as {@code serve}
 * does on SIGHUP. Every run drains to the end. Targets: no request lost (every arrival completes, none rejected or
 * aborted) and every reload applied. The swap pause is the wall time of the duty cycle that read and applied each
 * reload (the queued requests moved and the reload's log line included), on this machine; the virtual clock does not
 * advance during it. Stateless.
 */
public final class ReloadExperiment {
    static final int RELOADS = 20;

    private ReloadExperiment() {
    }

    /** Capacity, then the runs without and with reloads. */
    public static FlowReport run(FairnessExperiment.Settings s) {
        double capacity = FairnessExperiment.capacity(s);
        String base = PreemptionExperiment.yaml(false);
        String variant = base.replace("quantum: 1000\n", "quantum: 2000\n").replace(
            "prefill_busy_threshold_frac: 0.25\n                preemptible", "prefill_busy_threshold_frac: 0.3\n"
                + "                preemptible");
        PolicyProfile[] profiles = {PreemptionExperiment.profile(base), PreemptionExperiment.profile(variant)};
        String[] texts = {base, variant};
        List<Arrival> arrivals = new ArrayList<>();
        PreemptionExperiment.arrivals(s, "interactive", capacity * 0.1, arrivals);
        PreemptionExperiment.arrivals(s, "bulk", capacity * 1.0, arrivals);
        arrivals.sort((a, b) -> Long.compare(a.atNs(), b.atNs()));
        long drain = 4 * s.windowNs();

        FlowObserver still = new FlowObserver(PreemptionExperiment.FAMILIES, s.windowNs() / 4, s.windowNs());
        PreemptionExperiment.simulate(s, "reload-none", base, still, arrivals, List.of(), drain);
        Histogram pauseNs = new Histogram(60_000_000_000L, 3);
        List<RouterAction> actions = new ArrayList<>();
        for (int i = 1; i <= RELOADS; i++) {
            int k = i % 2;
            actions.add(new RouterAction(s.windowNs() * i / (RELOADS + 1), router -> {
                long start = System.nanoTime();
                router.reloadPolicy("reload experiment", texts[k], profiles[k]);
                router.doWork();
                pauseNs.recordValue(Math.min(pauseNs.getHighestTrackableValue(), System.nanoTime() - start));
            }));
        }
        FlowObserver reloading = new FlowObserver(PreemptionExperiment.FAMILIES, s.windowNs() / 4, s.windowNs());
        PreemptionExperiment.simulate(s, "reload-" + RELOADS, base, reloading, arrivals, actions, drain);

        List<FlowReport.Row> rows = new ArrayList<>();
        rows.addAll(FlowReport.rows("no reloads", PreemptionExperiment.FAMILIES, still, 2));
        rows.addAll(FlowReport.rows(RELOADS + " reloads", PreemptionExperiment.FAMILIES, reloading, 2));
        long arrived = 0;
        long completed = 0;
        long lost = 0;
        for (FlowObserver.Family f : reloading.figures) {
            arrived += f.arrivals;
            completed += f.completed;
            lost += f.lost + f.preempted;
        }
        List<TargetCheck> checks = List.of(
            new TargetCheck(RELOADS + " reloads under load: no request lost", lost == 0 && completed == arrived,
                String.format(Locale.ROOT, "%d arrived, %d completed, %d lost", arrived, completed, lost)),
            new TargetCheck("every reload applied between two duty cycles", reloading.reloads == RELOADS,
                String.format(Locale.ROOT, "%d applied, moving %d queued requests in all (at most %d at once); swap"
                    + " pause (the duty cycle that applied it, wall time) p50 %.0f µs, max %.0f µs",
                    reloading.reloads, reloading.requeued, reloading.maxRequeued,
                    pauseNs.getValueAtPercentile(50) / 1000.0, pauseNs.getMaxValue() / 1000.0)));
        return new FlowReport("Reloading the policy under load", String.format(Locale.ROOT,
            "fleet capacity %.1f requests/s; bulk offers 100 %%, interactive 10 %%", capacity), rows, checks);
    }
}
