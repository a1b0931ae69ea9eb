package dev.sluice.perf.experiment;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.transport.engine.sim.EngineCosts;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.ClosedLoopReport;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterSimulation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The closed-loop agent experiment (the ThunderAgent paper's and Dynamo's port's setup): {@code N} coding-agent
 * programs run at once on a simulated fleet, each replaced by the next the moment it ends, for every {@code N} of a
 * sweep and every policy: pass-through (the built-in KV selector) and each named ThunderAgent policy file. The same
 * programs in the same order for every run. Stateless.
 */
public final class ClosedLoopAgentExperiment {
    /** A policy under test: a ThunderAgent policy file's text, or {@code null} for pass-through. */
    public record Policy(String name, String policyText) {
        public static final Policy PASS_THROUGH = new Policy("pass-through", null);
    }

    /**
     * The run's knobs.
     *
     * @param workers  simulated workers.
     * @param engine   every worker's engine (scheduler mode, cost model, KV blocks).
     * @param programs the workload.
     * @param parallel the sweep: concurrent programs per run.
     * @param warmupNs warm-up before the window (not counted).
     * @param windowNs the measured window.
     * @param policies the policies, in order.
     * @param seed     router and engine seed.
     */
    public record Settings(int workers, SimEngineContext engine, CodingAgentWorkload programs, List<Integer> parallel,
                           long warmupNs, long windowNs, List<Policy> policies, long seed) {
        public Settings {
            parallel = List.copyOf(parallel);
            policies = List.copyOf(policies);
        }
    }

    /** One run's report and the sweep point it was. */
    public record Run(ClosedLoopReport report, double loadRatio, double r) {
    }

    private ClosedLoopAgentExperiment() {
    }

    /** Every (N, policy) run, N outer; {@code progress} hears each as it ends. */
    public static List<Run> run(Settings settings, Consumer<Run> progress)
        throws ConfigException, RegistryException {
        RouterPlugins registry = RouterPlugins.loadCatalogs(ClosedLoopAgentExperiment.class.getClassLoader());
        int[] system = settings.programs().systemPrompt();
        List<Run> runs = new ArrayList<>();
        for (int n : settings.parallel()) {
            for (Policy policy : settings.policies()) {
                ClusterContext context = new ClusterContext().label(policy.name()).workers(settings.workers())
                    .engine(settings.engine()).seed(settings.seed())
                    .durationNs(settings.warmupNs() + settings.windowNs());
                if (policy.policyText() == null) {
                    context.selector(RouterPlugins.builtinWorkerSelector(DefaultSelectorSettings.DEFAULTS));
                } else {
                    RouterPolicyConfig config = RouterPolicyLoader.parse(policy.policyText(), policy.name());
                    context.classifier(registry.resolveRequestClassifier(config.requestClassifier()).orElseThrow(
                            () -> new IllegalArgumentException(policy.name() + " configures no request_classifier")))
                        .selector(registry.resolveWorkerSelector(config.workerSelection(), "aggregated"));
                }
                long staggerNs = Math.min(60_000_000_000L, settings.warmupNs()) / n;
                ClosedLoopReport report = ClusterSimulation.runClosedLoop(context, n, settings.warmupNs(),
                    staggerNs, i -> settings.programs().program(i, system));
                Run run = new Run(report, loadRatio(settings, n, report.meanContextTokens()), r(settings,
                    report.meanContextTokens()));
                runs.add(run);
                progress.accept(run);
            }
        }
        return runs;
    }

    /** {@code N x mean context / KV tokens of the fleet}: above 1 the programs' contexts cannot all stay cached. */
    public static double loadRatio(Settings settings, int parallel, double meanContext) {
        return parallel * meanContext / kvTokensPerWorker(settings) / settings.workers();
    }

    /**
     * The thrash ratio R = prefill ms per token x KV tokens per worker / (output tokens per turn x decode step ms):
     * how many turns of decode it costs to re-prefill a worker's whole cache. The prefill cost per token is that of
     * prefilling one mean context from scratch under the engine's cost model, the decode step that of a full cache.
     * Below about 0.3 thrashing is cheap; the paper's regime is 2-3.
     */
    public static double r(Settings settings, double meanContext) {
        long context = Math.max(1, Math.round(meanContext));
        double prefillPerToken = EngineCosts.prefillMs(settings.engine(), context) / context;
        return prefillPerToken * kvTokensPerWorker(settings)
            / (settings.programs().meanOutputTokens() * EngineCosts.decodeStepMs(1.0));
    }

    private static double kvTokensPerWorker(Settings settings) {
        return (double) settings.engine().numGpuBlocks() * settings.engine().blockSize();
    }
}
