package dev.sluice.transport.frontend;

import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.cluster.ModelSync;
import dev.sluice.transport.cluster.ReplicaCluster;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngine;
import dev.sluice.transport.engine.http.ModelListing;
import dev.sluice.transport.engine.kv.KvEventSubscriber;
import dev.sluice.transport.engine.sim.SimulatedFleet;
import dev.sluice.transport.engine.telemetry.EngineMetricsScraper;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import dev.sluice.transport.engine.telemetry.HttpMetricsSource;
import dev.sluice.transport.engine.telemetry.ScrapeTarget;
import dev.sluice.transport.metrics.RouterMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One model of a frontend at run time: its journal, its router, its engines by worker id ({@link EngineSet}), their
 * health ({@link WorkerHealth}), membership in the router ({@link WorkerMembership}) and configuration errors
 * ({@link EngineConfigErrors}). A remote engine {@link #join joins} with its KV-event subscriber and metrics scraper
 * and is asked which models it serves (on a virtual thread: a mismatch is logged and listed by {@code /health}); one
 * that {@link #leave leaves} takes no new request while those running on it finish, then is stopped
 * ({@link #closeIdle}). Nothing queued or parked in the router is dropped by either.
 *
 * <p>Thread-safe: joins and leaves are serialized here; requests read the engines without a lock.
 */
final class ModelServing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ModelServing.class);

    private final ServedModel model;
    private final ModelRouter router;
    private final RouterMetrics metrics;
    private final JournalWriter journal;
    private final EngineSet engines;
    private final WorkerHealth health;
    private final WorkerMembership membership;
    private final EngineConfigErrors configErrors;
    /** Set when the requests still running are being stopped at the end of a shutdown's grace period. */
    private volatile boolean stopping;
    private final AtomicInteger answering = new AtomicInteger();
    /** No engine joins or leaves, nothing is read from the engines any more. */
    private boolean closed;
    private boolean stopped;

    private ModelServing(ServedModel model, ModelRouter router, RouterMetrics metrics, JournalWriter journal,
                         EngineSet engines) {
        this.model = model;
        this.router = router;
        this.metrics = metrics;
        this.journal = journal;
        this.engines = engines;
        WorkerHealthSettings settings = model.engines().health();
        this.membership = new WorkerMembership(router, metrics.health());
        this.configErrors = new EngineConfigErrors(List.of());
        this.health = new WorkerHealth(settings, List.of(), worker -> engines.engine(worker).probe(), membership,
            SystemNanoClock.INSTANCE, WorkerHealth.timer(settings, "sluice-health-" + model.name()));
    }

    /**
     * Opens the model's journal, starts its router and its engines.
     *
     * @param overloadStatus the status of capacity rejections.
     * @throws JournalException the journal cannot be opened (its message names the directory and the cause).
     */
    static ModelServing start(ServedModel model, int overloadStatus) throws JournalException {
        return start(model, overloadStatus, null);
    }

    /**
     * As {@link #start(ServedModel, int)}, in a fleet of replicas when {@code cluster} is not null: the router then
     * shares its bookings with the other replicas and counts theirs (remote engines only: a simulated fleet is each
     * replica's own).
     */
    static ModelServing start(ServedModel model, int overloadStatus, ReplicaCluster cluster)
        throws JournalException {
        // A copy: the caller's context stays as given (a frontend can be started again from the same settings).
        RouterContext context = model.router().copy().model(model.name()).blockSize(model.engines().blockSize())
            .overloadStatus(overloadStatus);
        RouterMetrics metrics = new RouterMetrics(model.name(), context.profile(), overloadStatus);
        JournalSetup setup = model.journal();
        JournalWriter journal = setup == null ? null : JournalWriter.open(setup.context(), JournalHeader.of(context,
            setup.policySource(), setup.policyText(), setup.classifier(), setup.fallbackThreshold(),
            setup.fallbackPolicy()));
        // An observer already on the context (the demo's per-request tally) sees every decision after these two.
        SchedulerObserver extra = model.router().observer();
        List<SchedulerObserver> observers = new ArrayList<>(List.of(metrics));
        if (journal != null) {
            observers.add(journal);
        }
        if (extra != SchedulerObserver.NONE) {
            observers.add(extra);
        }
        context.observer(observers.size() == 1 ? metrics : CompositeObserver.of(observers.toArray(
            new SchedulerObserver[0])));
        if (cluster != null) {
            context.sharedBudgets(cluster.budgets());
        }
        ModelSync sync = cluster != null && model.engines() instanceof EngineSetup.Remote
            ? cluster.model(model.name()) : null;
        if (sync != null) {
            context.bookingObserver(sync);
        }
        ModelRouter router;
        try {
            router = ModelRouter.start(context);
        } catch (RuntimeException e) {
            closeQuietly(journal);
            throw e;
        }
        metrics.attach(router::stats);
        metrics.attachJournal(journal);
        ModelServing serving = null;
        try {
            if (model.engines() instanceof EngineSetup.Simulated simulated) {
                SimulatedFleet fleet = SimulatedFleet.realTime(simulated.engine(), simulated.workers(),
                    router::kvEvent);
                serving = new ModelServing(model, router, metrics, journal, EngineSet.of(fleet.engines(),
                    fleet::close));
                for (int worker = 0; worker < fleet.size(); worker++) {
                    serving.track(worker, fleet.engines().get(worker));
                }
            } else {
                serving = new ModelServing(model, router, metrics, journal, new EngineSet(() -> { }));
                if (sync != null) {
                    sync.attach(router, serving.engines);
                }
                for (RemoteEngine engine : ((EngineSetup.Remote) model.engines()).engines()) {
                    serving.join(engine);
                }
            }
            return serving;
        } catch (RuntimeException | Error e) {
            if (serving != null) {
                serving.close();
            } else {
                router.close();
                closeQuietly(journal);
            }
            throw e;
        }
    }

    /** The worker, already in {@link #engines}, joins: tracked for health and configuration, in the router. */
    private void track(int worker, Engine engine) {
        configErrors.track(worker, engine.address());
        health.track(worker, engine.address());
        membership.add(worker, engine);
    }

    /**
     * A remote engine joins: a new worker id, in the router at once with its configured capacity, its KV events
     * subscribed to and its metrics scraped; its {@code /v1/models} is checked in the background.
     *
     * @return its worker id.
     * @throws IllegalArgumentException its KV-event endpoint cannot be used (the message names it).
     * @throws IllegalStateException    the model is closing.
     */
    synchronized int join(RemoteEngine remote) {
        if (closed) {
            throw new IllegalStateException("model " + model.name() + " is closing");
        }
        EngineSetup.Remote setup = (EngineSetup.Remote) model.engines();
        int worker = engines.nextId();
        HttpEngine engine = new HttpEngine(worker, remote.http());
        List<AutoCloseable> attached = new ArrayList<>(2);
        EngineMetricsScraper scraper = null;
        try {
            if (remote.kvEvents().isPresent()) {
                attached.add(KvEventSubscriber.start(worker, remote.kvEvents().get(), setup.blockSize(),
                    router::kvEvent, metrics.kvEvents().worker(worker)));
            }
            EngineMetricsSettings scraping = setup.metrics();
            if (scraping.enabled() && remote.metrics().isPresent()) {
                EngineRuntimeConfig config = remote.http().runtimeConfig();
                scraper = new EngineMetricsScraper(new ScrapeTarget(worker, config.dataParallelSize(),
                    remote.http().model(), config.blockSize(), config.totalKvBlocks(), remote.capacityFromEngine()),
                    new HttpMetricsSource(remote.metrics().get(), scraping.timeout()), membership,
                    metrics.telemetry(), SystemNanoClock.INSTANCE);
                attached.add(scraper);
            }
            engines.add(engine, attached);
        } catch (RuntimeException e) {
            for (AutoCloseable resource : attached) {
                closeQuietly(resource);
            }
            engine.close();
            throw e;
        }
        track(worker, engine);
        if (scraper != null) {
            // Once the worker is in the router: a capacity it publishes applies to it from the first scrape.
            scraper.start(setup.metrics().interval());
        }
        Thread.ofVirtual().name("sluice-model-check-" + worker).start(() -> checkModel(worker, engine));
        LOG.info("model {}: worker {} ({}) joined{}", model.name(), worker, remote.url(), remote.kvEvents()
            .map(source -> ", KV events from " + source.endpoint()).orElse(""));
        return worker;
    }

    /** Asks the engine which models it serves; one that does not serve the model sluice asks for is misconfigured. */
    private void checkModel(int worker, HttpEngine engine) {
        String expected = engine.settings().model();
        ModelListing listing = engine.models();
        if (!listing.read()) {
            LOG.warn("model {}: worker {} ({}) could not be asked which models it serves: {}", model.name(), worker,
                engine.address(), listing.failure());
        } else if (!listing.ids().contains(expected)) {
            configErrors.onMisconfigured(worker, "the engine serves " + (listing.ids().isEmpty() ? "no model"
                : String.join(", ", listing.ids())) + ", not `" + expected + "` (set engine_model in the engines "
                + "file, or --engine-model)");
        }
    }

    /**
     * The engine at {@code url} leaves: out of the router at once (nothing new is placed on it; queued requests
     * wait for the others), its KV events and metrics no longer read; its running requests finish.
     *
     * @return whether such an engine was serving the model.
     */
    synchronized boolean leave(String url) {
        OptionalInt found = engines.find(url);
        if (found.isEmpty() || closed) {
            return false;
        }
        int worker = found.getAsInt();
        membership.remove(worker);
        health.forget(worker);
        configErrors.forget(worker);
        engines.retire(worker);
        LOG.info("model {}: worker {} ({}) left; it is stopped once its running requests finish", model.name(),
            worker, url);
        return true;
    }

    /** Stops the engines that left and have nothing running any more; returns how many. */
    int closeIdle() {
        return engines.closeIdle();
    }

    ServedModel model() {
        return model;
    }

    String name() {
        return model.name();
    }

    ModelRouter router() {
        return router;
    }

    RouterMetrics metrics() {
        return metrics;
    }

    EngineSet engines() {
        return engines;
    }

    WorkerHealth health() {
        return health;
    }

    EngineConfigErrors configErrors() {
        return configErrors;
    }

    JournalWriter journal() {
        return journal;
    }

    /**
     * Stops reading the engines (KV events, metrics) and probing them: no worker leaves or rejoins the router, nor
     * changes its capacity, from now on. No engine joins or leaves either. Idempotent.
     */
    synchronized void stopWatching() {
        closed = true;
        engines.detachAll();
        health.close();
    }

    /**
     * The grace period of a shutdown is over: the engine requests still running are stopped, and each of their
     * clients gets a {@code shutting_down} error (an error event on a stream) instead of the rest of its answer.
     */
    void stopRunning() {
        stopping = true;
        engines.close();
    }

    /** How many dispatched requests are being answered now (their handlers have not returned). */
    AtomicInteger answering() {
        return answering;
    }

    /** Whether the requests still running are being stopped ({@link #stopRunning}). */
    boolean stopping() {
        return stopping;
    }

    /** Stops watching, then the router, the engines and the journal, in that order. Idempotent. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        stopWatching();
        try {
            router.close();
        } finally {
            try {
                engines.close();
            } finally {
                closeQuietly(journal);
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("cannot close {}: {}", resource, e.toString());
        }
    }
}
