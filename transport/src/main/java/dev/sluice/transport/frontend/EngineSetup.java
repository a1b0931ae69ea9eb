package dev.sluice.transport.frontend;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.http.HttpEngine;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.kv.KvEventSource;
import dev.sluice.transport.engine.kv.KvEventSubscriber;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.sim.SimulatedFleet;
import dev.sluice.transport.metrics.KvEventMetrics;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Which engines a frontend serves with: the embedded simulated fleet, or remote OpenAI-compatible servers. */
public sealed interface EngineSetup permits EngineSetup.Simulated, EngineSetup.Remote {
    /** Tokens per KV block, the router's block size for hashing prompts. */
    int blockSize();

    /** For the ready line, e.g. {@code 4 simulated workers}. */
    String describe();

    /** When a worker's engine counts as unhealthy and how it is probed afterwards. */
    WorkerHealthSettings health();

    /**
     * Starts the engines, worker ids {@code 0..N-1}; KV events (from engines that report them) go to {@code sink},
     * what their subscribers did to {@code kvMetrics}. Nothing is left running if this throws.
     */
    EngineSet open(KvEventSink sink, KvEventMetrics kvMetrics);

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

        @Override
        public EngineSet open(KvEventSink sink, KvEventMetrics kvMetrics) {
            SimulatedFleet fleet = SimulatedFleet.realTime(engine, workers, sink);
            return new EngineSet(fleet.engines(), fleet::close);
        }
    }

    /**
     * Remote engines over HTTP, one worker each, in order; those with a KV-event source are subscribed to (one
     * {@link KvEventSubscriber} each, closed before the engines).
     *
     * @param engines  at least one; all with the same block size.
     * @param health   when an engine is marked unhealthy and taken out of the router, and how it is probed.
     * @param metrics  whether and how often each engine's {@code /metrics} is read for its load and capacity.
     * @param kvEvents worker id to where its engine publishes KV events; workers not in it publish none.
     */
    record Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health, EngineMetricsSettings metrics,
                  Map<Integer, KvEventSource> kvEvents) implements EngineSetup {
        public Remote {
            Objects.requireNonNull(health, "health");
            Objects.requireNonNull(metrics, "metrics");
            kvEvents = Map.copyOf(kvEvents);
            engines = List.copyOf(engines);
            for (int worker : kvEvents.keySet()) {
                if (worker < 0 || worker >= engines.size()) {
                    throw new IllegalArgumentException("KV events for worker " + worker + " of " + engines.size());
                }
            }
            if (engines.isEmpty()) {
                throw new IllegalArgumentException("at least one remote engine is needed");
            }
            int blockSize = engines.get(0).runtimeConfig().blockSize();
            for (HttpEngineSettings settings : engines) {
                if (settings.runtimeConfig().blockSize() != blockSize) {
                    throw new IllegalArgumentException("remote engines must share one block size");
                }
            }
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

        @Override
        public int blockSize() {
            return engines.get(0).runtimeConfig().blockSize();
        }

        @Override
        public String describe() {
            List<String> urls = new ArrayList<>(engines.size());
            for (HttpEngineSettings settings : engines) {
                urls.add(settings.baseUrl());
            }
            return engines.size() + " remote engine" + (engines.size() == 1 ? "" : "s") + ": "
                + String.join(", ", urls) + (kvEvents.isEmpty() ? "" : "; KV events from " + kvEvents.size());
        }

        @Override
        public EngineSet open(KvEventSink sink, KvEventMetrics kvMetrics) {
            List<AutoCloseable> opened = new ArrayList<>(engines.size() + kvEvents.size());
            List<Engine> started = new ArrayList<>(engines.size());
            try {
                for (int id = 0; id < engines.size(); id++) {
                    HttpEngine engine = new HttpEngine(id, engines.get(id));
                    opened.add(engine);
                    started.add(engine);
                }
                // Subscribers last, so they close first: no event arrives for an engine already stopped.
                for (Map.Entry<Integer, KvEventSource> e : new TreeMap<>(kvEvents).entrySet()) {
                    opened.add(KvEventSubscriber.start(e.getKey(), e.getValue(), blockSize(), sink,
                        kvMetrics.worker(e.getKey())));
                }
            } catch (RuntimeException | Error e) {
                closeReversed(opened);
                throw e;
            }
            List<AutoCloseable> view = List.copyOf(opened);
            return new EngineSet(started, () -> closeReversed(view));
        }

        /** Closes every one, the last first, even when one fails; then throws the first failure. */
        private static void closeReversed(List<AutoCloseable> resources) {
            RuntimeException failure = null;
            for (int i = resources.size() - 1; i >= 0; i--) {
                try {
                    resources.get(i).close();
                } catch (Exception e) {
                    RuntimeException wrapped = e instanceof RuntimeException r ? r
                        : new IllegalStateException("cannot close " + resources.get(i), e);
                    if (failure == null) {
                        failure = wrapped;
                    } else {
                        failure.addSuppressed(wrapped);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
