package dev.sluice.transport.frontend;

import dev.sluice.core.kv.KvEventSink;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.http.HttpEngine;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.sim.SimulatedFleet;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Which engines a frontend serves with: the embedded simulated fleet, or remote OpenAI-compatible servers. */
public sealed interface EngineSetup permits EngineSetup.Simulated, EngineSetup.Remote {
    /** Tokens per KV block, the router's block size for hashing prompts. */
    int blockSize();

    /** For the ready line, e.g. {@code 4 simulated workers}. */
    String describe();

    /** When a worker's engine counts as unhealthy and how it is probed afterwards. */
    WorkerHealthSettings health();

    /**
     * Starts the engines, worker ids {@code 0..N-1}; KV events (from engines that report them) go to {@code sink}.
     * Nothing is left running if this throws.
     */
    EngineSet open(KvEventSink sink);

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
        public EngineSet open(KvEventSink sink) {
            SimulatedFleet fleet = SimulatedFleet.realTime(engine, workers, sink);
            return new EngineSet(fleet.engines(), fleet::close);
        }
    }

    /**
     * Remote engines over HTTP, one worker each, in order. They send no KV events.
     *
     * @param engines at least one; all with the same block size.
     * @param health  when an engine is marked unhealthy and taken out of the router, and how it is probed.
     * @param metrics whether and how often each engine's {@code /metrics} is read for its load and capacity.
     */
    record Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health, EngineMetricsSettings metrics)
        implements EngineSetup {
        public Remote {
            Objects.requireNonNull(health, "health");
            Objects.requireNonNull(metrics, "metrics");
            engines = List.copyOf(engines);
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

        /** Remote engines whose metrics are not read ({@link EngineMetricsSettings#OFF}). */
        public Remote(List<HttpEngineSettings> engines, WorkerHealthSettings health) {
            this(engines, health, EngineMetricsSettings.OFF);
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
                + String.join(", ", urls);
        }

        @Override
        public EngineSet open(KvEventSink sink) {
            List<Engine> opened = new ArrayList<>(engines.size());
            try {
                for (int id = 0; id < engines.size(); id++) {
                    opened.add(new HttpEngine(id, engines.get(id)));
                }
            } catch (RuntimeException | Error e) {
                closeReversed(opened);
                throw e;
            }
            List<Engine> view = List.copyOf(opened);
            return new EngineSet(view, () -> closeReversed(view));
        }

        private static void closeReversed(List<Engine> engines) {
            for (int i = engines.size() - 1; i >= 0; i--) {
                engines.get(i).close();
            }
        }
    }
}
