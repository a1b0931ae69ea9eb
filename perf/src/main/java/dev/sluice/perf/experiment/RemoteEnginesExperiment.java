package dev.sluice.perf.experiment;

import dev.sluice.core.journal.JournalException;
import dev.sluice.transport.demo.DemoFleet;
import dev.sluice.transport.demo.DemoSetup;
import dev.sluice.transport.demo.DemoTraffic;
import dev.sluice.transport.demo.InProcessDemo;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.Frontend;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The demo's workload ({@link DemoTraffic}: same generator, same seed, same calls at the same offsets) through the
 * frontend twice, in real time over loopback HTTP: first on the embedded simulated fleet ({@code sluice demo}), then
 * on as many mock engines ({@code sluice mock-engine}, the same simulator core) behind the frontend as
 * {@code serve --engine-url ... --engine-kv-events ...} runs them ({@link RemoteFleet}), where the router knows their
 * caches only from their vLLM KV events over ZMQ and their load from their {@code /metrics}. Same router both times
 * ({@link DemoSetup#router}). The figure compared is each fleet's token-weighted prefix-cache hit rate: the prompt
 * tokens its engines found cached over those they looked up, summed over the fleet, read from the engines in
 * process for the embedded fleet and from the mock engines' own {@code vllm:prefix_cache_hits_total} and
 * {@code vllm:prefix_cache_queries_total} for the remote one. Runs on the caller's thread; everything it starts is
 * closed before it returns.
 */
public final class RemoteEnginesExperiment {
    /**
     * How long calls still running at the end of the window may take before they are stopped, and how long one call
     * may take to connect and to end: bounds against a hang only. They are far above the demo's own (30 s, 5 s and
     * 60 s), because the figures compared are the engines' counters, not times, and a machine busy with other work
     * stalls a connect for more than 5 s (72 of one run's calls timed out so at load average 20).
     */
    static final Duration DRAIN_LIMIT = Duration.ofMinutes(5);
    static final Duration CALL_LIMIT = Duration.ofMinutes(5);
    /** How long the engines may take to finish what clients left behind (requests cancelled late). */
    static final Duration SETTLE_LIMIT = Duration.ofSeconds(30);

    /**
     * The run's knobs, those of {@code sluice demo}.
     *
     * @param workers  workers of each fleet (the demo's {@code --sim-workers}); the workload scales with them.
     * @param duration the workload's window (the demo's {@code --duration}).
     * @param seed     the workload's and the router's seed (the demo's {@code --seed}).
     */
    public record Settings(int workers, Duration duration, long seed) {
        public Settings {
            Objects.requireNonNull(duration, "duration");
            if (workers < 1) {
                throw new IllegalArgumentException("at least one worker, was " + workers);
            }
        }
    }

    /**
     * One fleet's run.
     *
     * @param label       which fleet.
     * @param clients     what the clients saw.
     * @param dispatched  requests the router placed on a worker.
     * @param queries     prompt tokens the fleet's engines looked up in their prefix caches (one lookup per
     *                    admission).
     * @param hits        of those, the tokens found cached.
     * @param preemptions requests the engines preempted (KV cache full).
     * @param demoFigure  the hit rate {@code sluice demo} prints: per rank, the mean prompt fraction found cached
     *                    over its last 1000 admissions; averaged over the ranks.
     */
    public record Fleet(String label, DemoTraffic.Outcome clients, long dispatched, long queries, long hits,
                        long preemptions, double demoFigure) {
        /** Token-weighted prefix-cache hit rate, {@code hits / queries}; 0 without lookups. */
        public double hitRate() {
            return queries == 0 ? 0.0 : (double) hits / queries;
        }
    }

    /**
     * What the frontend's subscribers made of the mock engines' KV events, summed over the workers.
     *
     * @param applied events applied to the router's prefix index.
     * @param gaps    sequence gaps seen; each is replayed or ends in a reset.
     * @param resets  times the router forgot a worker's cache (a gap not replayed, a restart, a clear).
     * @param dropped events or batches that could not be used (malformed, wrong block size, unknown parent).
     */
    public record KvEvents(long applied, long gaps, long resets, long dropped) {
        /** Whether the router learnt every block the engines stored and removed: nothing lost for good. */
        public boolean complete() {
            return resets == 0 && dropped == 0;
        }
    }

    /**
     * Both fleets' runs of one workload.
     *
     * @param workload       one line: the calls sent to each.
     * @param remoteKvEvents the mock engines' KV events as the frontend in front of them counted them.
     */
    public record Result(Settings settings, String workload, Fleet embedded, Fleet remote, KvEvents remoteKvEvents) {
        /** The remote fleet's hit rate minus the embedded fleet's, in percentage points. */
        public double gapPoints() {
            return (remote.hitRate() - embedded.hitRate()) * 100;
        }
    }

    private RemoteEnginesExperiment() {
    }

    /**
     * Both runs, the embedded fleet first.
     *
     * @throws IllegalStateException an engine did not settle or a mock engine's metrics could not be read.
     */
    public static Result run(Settings settings) throws InterruptedException, JournalException {
        DemoTraffic traffic = DemoTraffic.of(settings.workers(), settings.duration(), settings.seed(),
            InProcessDemo.MODEL);
        Fleet embedded = embedded(settings, traffic);
        Remote remote = remote(settings, traffic);
        return new Result(settings, traffic.describe(), embedded, remote.fleet(), remote.kvEvents());
    }

    static Fleet embedded(Settings settings, DemoTraffic traffic) throws InterruptedException, JournalException {
        EngineSetup.Simulated fleet = new EngineSetup.Simulated(DemoFleet.engine(), settings.workers());
        try (Frontend frontend = Frontend.start(DemoSetup.frontend(DemoSetup.router(settings.seed()), fleet, null))) {
            DemoTraffic.Outcome clients = traffic.send(baseUri(frontend), DRAIN_LIMIT, CALL_LIMIT);
            List<Engine> engines = frontend.engines();
            await("the embedded engines to settle", () -> settled(engines));
            long queries = 0;
            long hits = 0;
            long preemptions = 0;
            for (Engine engine : engines) {
                for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
                    EngineLoad load = engine.load(rank);
                    queries += load.prefixCacheQueries();
                    hits += load.prefixCacheHits();
                    preemptions += load.preemptions();
                }
            }
            return new Fleet(fleet.describe(), clients, frontend.router().stats().dispatched(), queries, hits,
                preemptions, demoFigure(engines));
        }
    }

    /** The remote fleet's run and what the frontend made of its KV events. */
    record Remote(Fleet fleet, KvEvents kvEvents) {
    }

    static Remote remote(Settings settings, DemoTraffic traffic) throws InterruptedException, JournalException {
        try (RemoteFleet fleet = RemoteFleet.start(settings.workers(), DemoFleet.engine(), InProcessDemo.MODEL);
             Frontend frontend = Frontend.start(DemoSetup.frontend(DemoSetup.router(settings.seed()), fleet.setup(),
                 null))) {
            fleet.awaitConnected(frontend);
            DemoTraffic.Outcome clients = traffic.send(baseUri(frontend), DRAIN_LIMIT, CALL_LIMIT);
            await("the mock engines to settle", fleet::settled);
            RemoteFleet.Counters counters = fleet.counters();
            return new Remote(new Fleet(settings.workers() + " mock engines behind --engine-url", clients,
                frontend.router().stats().dispatched(), counters.queries(), counters.hits(), counters.preemptions(),
                demoFigure(fleet.engines())), fleet.kvEvents(frontend));
        }
    }

    /** The two fleets as one aligned table, a row each, the gap, and what the columns mean. */
    public static void print(Result result, PrintStream out) {
        out.printf("%-36s %6s %9s %8s %5s %6s %10s %12s %12s %8s%n", "fleet", "sent", "completed", "rejected",
            "left", "failed", "dispatched", "looked up", "found cached", "hit rate");
        for (Fleet fleet : List.of(result.embedded(), result.remote())) {
            DemoTraffic.Outcome c = fleet.clients();
            out.printf(Locale.ROOT, "%-36s %6d %9d %8d %5d %6d %10d %12d %12d %7.2f%%%n", fleet.label(), c.sent(),
                c.completed(), c.rejected(), c.left(), c.failed(), fleet.dispatched(), fleet.queries(), fleet.hits(),
                fleet.hitRate() * 100);
        }
        out.printf(Locale.ROOT, "%ngap: %+.2f points (remote minus embedded); sluice demo's figure %.2f%% and %.2f%%;"
                + " preemptions %d and %d%n", result.gapPoints(), result.embedded().demoFigure() * 100,
            result.remote().demoFigure() * 100, result.embedded().preemptions(), result.remote().preemptions());
        KvEvents kv = result.remoteKvEvents();
        out.printf("KV events from the mock engines: %d applied, %d gaps, %d resets, %d dropped%n", kv.applied(),
            kv.gaps(), kv.resets(), kv.dropped());
        out.println("  looked up     prompt tokens the engines looked up in their prefix caches, one lookup per"
            + " admission (vllm:prefix_cache_queries)");
        out.println("  found cached  of those, the tokens found cached (vllm:prefix_cache_hits); hit rate: their"
            + " ratio over the fleet");
        out.println("  rejected      answered with an error status, mostly the router's 429 when a queue budget"
            + " ran out under the burst");
    }

    /** As {@code sluice demo} computes its hit rate: the ranks' windowed means, averaged over the ranks. */
    static double demoFigure(List<Engine> engines) {
        double sum = 0;
        int ranks = 0;
        for (Engine engine : engines) {
            for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
                sum += engine.load(rank).prefixCacheHitRate();
                ranks++;
            }
        }
        return ranks == 0 ? 0.0 : sum / ranks;
    }

    /** Nothing running or waiting in any rank: no admission (no lookup) is still to come. */
    private static boolean settled(List<Engine> engines) {
        for (Engine engine : engines) {
            for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
                EngineLoad load = engine.load(rank);
                if (load.runningRequests() > 0 || load.waitingRequests() > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Waits for an outcome another thread brings about, checking every 20 ms; fails naming it after the limit. */
    static void await(String what, BooleanSupplier condition) {
        long giveUp = System.nanoTime() + SETTLE_LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - giveUp > 0) {
                throw new IllegalStateException("gave up after " + SETTLE_LIMIT.toSeconds() + " s waiting for " + what);
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }

    private static URI baseUri(Frontend frontend) {
        return URI.create("http://127.0.0.1:" + frontend.port());
    }
}
