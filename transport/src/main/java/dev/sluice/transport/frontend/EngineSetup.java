package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which engines a model is served with: the embedded simulated fleet, or remote OpenAI-compatible servers. The
 * frontend starts them ({@link ModelServing}); remote engines may join and leave while it runs.
 */
public sealed interface EngineSetup permits EngineSetup.Simulated, EngineSetup.Remote {
    /** Tokens per KV block, the router's block size for hashing prompts. */
    int blockSize();

    /** For the ready line, e.g. {@code 4 simulated workers}. */
    String describe();

    /** When a worker's engine counts as unhealthy and how it is probed afterwards. */
    WorkerHealthSettings health();

    /**
     * In-process simulated workers driven in real time, each on its own runner thread.
     *
     * @param engine  the simulated engines' settings.
     * @param workers how many, at least 1.
     */
    record Simulated(SimEngineContext engine, int workers) implements EngineSetup {
        public Simulated {
            Objects.requireNonNull(engine, "engine");
            if (workers < 1) {
                throw new IllegalArgumentException("at least one simulated worker is needed, was " + workers);
            }
        }

        @Override
        public int blockSize() {
            return engine.blockSize();
        }

        @Override
        public String describe() {
            return workers + " simulated worker" + (workers == 1 ? "" : "s");
        }

        /** In-process engines do not fail the ways that health tracking is for: {@link WorkerHealthSettings#OFF}. */
        @Override
        public WorkerHealthSettings health() {
            return WorkerHealthSettings.OFF;
        }
    }

    /**
     * Remote engines over HTTP, one worker each, in order, with what the frontend reads from them.
     *
     * @param health    when an engine is marked unhealthy and taken out of the router, and how it is probed.
     * @param metrics   whether and how often each engine's {@code /metrics} is read for its load and capacity.
     * @param blockSize the router's block size: the engines' KV blocks are re-hashed to it.
     * @param engines   the engines at start-up; none is allowed when an engines file may bring some later.
     */
    record Remote(WorkerHealthSettings health, EngineMetricsSettings metrics, int blockSize,
                  List<RemoteEngine> engines) implements EngineSetup {
        public Remote {
            Objects.requireNonNull(health, "health");
            Objects.requireNonNull(metrics, "metrics");
            engines = List.copyOf(engines);
            if (blockSize < 1) {
                throw new IllegalArgumentException("the block size must be >= 1, was " + blockSize);
            }
            List<String> urls = new ArrayList<>();
            for (RemoteEngine engine : engines) {
                if (engine.http().runtimeConfig().blockSize() != blockSize) {
                    throw new IllegalArgumentException("engine " + engine.url() + " has block size "
                        + engine.http().runtimeConfig().blockSize() + ", the model " + blockSize);
                }
                if (urls.contains(engine.url())) {
                    throw new IllegalArgumentException("engine " + engine.url() + " is given twice");
                }
                urls.add(engine.url());
            }
        }

        /**
         * Remote engines; engine {@code i} publishes KV events to {@code kvEvents.get(i)} if present.
         *
         * @param engines at least one; all with the same block size.
         */
        public Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health, EngineMetricsSettings metrics,
                      Map<Integer, KvEventSource> kvEvents) {
            this(health, metrics, blockSizeOf(engines), remote(engines, metrics, kvEvents));
        }

        /** Remote engines with {@link WorkerHealthSettings#DEFAULT} health tracking, their metrics not read. */
        public Remote(List<HttpEngineSettings> engines) {
            this(engines, WorkerHealthSettings.DEFAULT);
        }

        /** Remote engines whose metrics are not read ({@link EngineMetricsSettings#OFF}), sending no KV events. */
        public Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health) {
            this(engines, health, EngineMetricsSettings.OFF);
        }

        /** Remote engines that send no KV events. */
        public Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health, EngineMetricsSettings metrics) {
            this(engines, health, metrics, Map.of());
        }

        private static int blockSizeOf(List<HttpEngineSettings> engines) {
            if (engines.isEmpty()) {
                throw new IllegalArgumentException("at least one remote engine is needed");
            }
            return engines.get(0).runtimeConfig().blockSize();
        }

        private static List<RemoteEngine> remote(List<HttpEngineSettings> engines, EngineMetricsSettings metrics,
                                                 Map<Integer, KvEventSource> kvEvents) {
            for (int worker : kvEvents.keySet()) {
                if (worker < 0 || worker >= engines.size()) {
                    throw new IllegalArgumentException("KV events for worker " + worker + " of " + engines.size());
                }
            }
            List<RemoteEngine> remote = new ArrayList<>(engines.size());
            for (int worker = 0; worker < engines.size(); worker++) {
                RemoteEngine engine = RemoteEngine.of(engines.get(worker), metrics.capacityFromEngine());
                KvEventSource source = kvEvents.get(worker);
                remote.add(source == null ? engine : engine.withKvEvents(source));
            }
            return remote;
        }

        @Override
        public String describe() {
            List<String> urls = new ArrayList<>(engines.size());
            int kvEvents = 0;
            for (RemoteEngine engine : engines) {
                urls.add(engine.url());
                kvEvents += engine.kvEvents().isPresent() ? 1 : 0;
            }
            return engines.size() + " remote engine" + (engines.size() == 1 ? "" : "s") + (urls.isEmpty() ? ""
                : ": " + String.join(", ", urls)) + (kvEvents == 0 ? "" : "; KV events from " + kvEvents);
        }
    }
}
