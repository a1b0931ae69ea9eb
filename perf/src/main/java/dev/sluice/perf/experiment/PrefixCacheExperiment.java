package dev.sluice.perf.experiment;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.frontend.RouterModes;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterReport;
import dev.sluice.transport.simulation.ClusterSimulation;
import dev.sluice.transport.simulation.SessionPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * Prefix-cache hit rates by router mode: the same chat workload with shared system prompts, on the same fleet and
 * seed, placed by each router mode ({@code kv}, {@code round-robin}, {@code random}); the table compares the
 * engines' prefix-cache hit rates. Stateless.
 */
public final class PrefixCacheExperiment {
    /** The router modes compared, in table order. */
    public static final List<String> MODES = List.of("kv", "round-robin", "random");

    /**
     * The run's knobs.
     *
     * @param workers  simulated workers.
     * @param gpuBlocks KV blocks per worker.
     * @param chats    the workload.
     * @param seed     router and engine seed.
     */
    public record Settings(int workers, long gpuBlocks, ChatWorkload chats, long seed) {
        /** The defaults of {@code sluice simulate prefix-cache}, for a window and seed. */
        public static Settings defaults(int workers, long durationNs, long seed) {
            return new Settings(workers, 1024, new ChatWorkload(durationNs, 1.5 * workers, 16, 4000, 2, 4, 200, 150,
                10_000_000_000L, seed), seed);
        }
    }

    private PrefixCacheExperiment() {
    }

    /** One report per mode of {@code modes}. */
    public static List<ClusterReport> run(Settings settings, List<String> modes) {
        List<SessionPlan> sessions = settings.chats().generate();
        List<ClusterReport> reports = new ArrayList<>();
        for (String mode : modes) {
            ClusterContext context = new ClusterContext().label(mode).workers(settings.workers())
                .engine(new SimEngineContext().numGpuBlocks(settings.gpuBlocks()))
                .selector(RouterModes.parse(mode).selector(RouterPlugins.builtinWorkerSelector(
                    DefaultSelectorSettings.DEFAULTS)))
                .seed(settings.seed()).durationNs(settings.chats().durationNs());
            reports.add(ClusterSimulation.run(context, sessions));
        }
        return reports;
    }
}
