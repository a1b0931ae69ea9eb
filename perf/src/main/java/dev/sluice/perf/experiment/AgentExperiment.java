package dev.sluice.perf.experiment;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterReport;
import dev.sluice.transport.simulation.ClusterSimulation;
import dev.sluice.transport.simulation.SessionPlan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Agent sessions with and without ThunderAgent: the same agentic workload on the same fleet and seed, admitted by
 * the pass-through classifier with the built-in KV selector, then by {@code thunderagent} with its worker selector,
 * both resolved through the plugin registry from a policy file (by default {@code thunderagent.yaml}, the guide's
 * block). Stateless.
 */
public final class AgentExperiment {
    /** The bundled policy: ThunderAgent with every parameter at its default, and its selector. */
    public static final String BUNDLED_POLICY = "/dev/sluice/perf/experiment/thunderagent.yaml";
    /** The bundled paper-mode policy: ThunderAgent with {@code mode: paper}, and its selector. */
    public static final String BUNDLED_PAPER_POLICY = "/dev/sluice/perf/experiment/thunderagent-paper.yaml";
    /** The bundled fit policy: Dynamo's defaults with first-fit resume and just-enough pause marking. */
    public static final String BUNDLED_FIT_POLICY = "/dev/sluice/perf/experiment/thunderagent-fit.yaml";

    /**
     * The run's knobs.
     *
     * @param workers    simulated workers.
     * @param gpuBlocks  KV blocks per worker (64 tokens each): small puts the fleet under KV pressure.
     * @param agents     the workload.
     * @param seed       router and engine seed.
     * @param policyText the ThunderAgent policy file's text.
     * @param policyName where it came from, for error messages.
     */
    public record Settings(int workers, long gpuBlocks, AgentWorkload agents, long seed, String policyText,
                           String policyName) {
        /** The defaults of {@code sluice simulate agents}, for a fleet, window and seed. */
        public static Settings defaults(int workers, long gpuBlocks, long durationNs, long seed) throws IOException {
            return new Settings(workers, gpuBlocks, new AgentWorkload(durationNs, 0.5 * workers, 2000, 1500, 4, 10,
                1000, 250, 5_000_000_000L, seed), seed, bundledPolicy(), "thunderagent.yaml (bundled)");
        }
    }

    private AgentExperiment() {
    }

    /** The pass-through run, then the ThunderAgent run. */
    public static List<ClusterReport> run(Settings settings) throws ConfigException, RegistryException {
        RouterPolicyConfig policy = RouterPolicyLoader.parse(settings.policyText(), settings.policyName());
        RouterPlugins registry = RouterPlugins.loadCatalogs(AgentExperiment.class.getClassLoader());
        List<SessionPlan> sessions = settings.agents().generate();
        ClusterReport passThrough = ClusterSimulation.run(context(settings).label("pass-through + kv")
            .selector(RouterPlugins.builtinWorkerSelector(DefaultSelectorSettings.DEFAULTS)), sessions);
        ClusterReport thunder = ClusterSimulation.run(context(settings).label("thunderagent")
            .classifier(registry.resolveRequestClassifier(policy.requestClassifier()).orElseThrow(
                () -> new IllegalArgumentException(settings.policyName() + " configures no request_classifier")))
            .selector(registry.resolveWorkerSelector(policy.workerSelection(), "aggregated")), sessions);
        return List.of(passThrough, thunder);
    }

    private static ClusterContext context(Settings settings) {
        return new ClusterContext().workers(settings.workers())
            .engine(new SimEngineContext().numGpuBlocks(settings.gpuBlocks()))
            .seed(settings.seed()).durationNs(settings.agents().durationNs());
    }

    /** The bundled policy's text. */
    public static String bundledPolicy() throws IOException {
        return bundled(BUNDLED_POLICY);
    }

    /** A bundled policy's text, by resource name. */
    public static String bundled(String resource) throws IOException {
        try (InputStream in = AgentExperiment.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
