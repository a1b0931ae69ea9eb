package dev.sluice.transport.simulation;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.transport.engine.sim.SimEngineContext;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One cluster run's configuration, set fluently: the fleet (size and mocker options), the router (model, profile,
 * classifier, worker selector, observer, seed), and the run's time bounds. Defaults: 4 workers with the mocker's
 * defaults, model {@value #DEFAULT_MODEL}, the pass-through classifier, the built-in KV selector, no router queueing,
 * no observer, a 60 s load window and up to 10 min to drain. Mutable and not thread-safe; {@link ClusterSimulation}
 * reads it once.
 */
public final class ClusterContext {
    /** The model the router serves unless {@link #model} says otherwise. */
    public static final String DEFAULT_MODEL = "cluster";
    /** Live requests and running deferrals the router may hold: more than any simulated run needs. */
    private static final int ROUTER_LIMIT = 1 << 20;

    private String label = "run";
    private String model = DEFAULT_MODEL;
    private int workers = 4;
    private SimEngineContext engine = new SimEngineContext();
    private PolicyProfile profile = PolicyProfile.synthetic(OptionalDouble.empty(), QueuePolicy.FCFS);
    private RequestClassifierFactory classifier;
    private WorkerSelectorFactory selector = RouterPlugins.builtinWorkerSelector(DefaultSelectorSettings.DEFAULTS);
    private SchedulerObserver observer = SchedulerObserver.NONE;
    private long seed = 42;
    private long durationNs = 60_000_000_000L;
    private long drainLimitNs = 600_000_000_000L;
    private long tickNs = 10_000_000L;

    /** The defaults above; set what differs fluently. */
    public ClusterContext() {
    }

    /** The run's name in reports (e.g. the router mode). */
    public ClusterContext label(String name) {
        this.label = Objects.requireNonNull(name, "label");
        return this;
    }

    public String label() {
        return label;
    }

    /** The model the router serves (the one a policy's profile is resolved for). */
    public ClusterContext model(String name) {
        this.model = Objects.requireNonNull(name, "model");
        return this;
    }

    public String model() {
        return model;
    }

    /** Simulated workers, ids {@code 0..n-1}. */
    public ClusterContext workers(int n) {
        this.workers = n;
        return this;
    }

    public int workers() {
        return workers;
    }

    /** The mocker options every worker copies; the router hashes blocks with its block size. */
    public ClusterContext engine(SimEngineContext options) {
        this.engine = Objects.requireNonNull(options, "engine");
        return this;
    }

    public SimEngineContext engine() {
        return engine;
    }

    /** The router's policy profile (queueing off by default). */
    public ClusterContext profile(PolicyProfile policyProfile) {
        this.profile = Objects.requireNonNull(policyProfile, "profile");
        return this;
    }

    public PolicyProfile profile() {
        return profile;
    }

    /** The classifier factory; {@code null} is the pass-through classifier. */
    public ClusterContext classifier(RequestClassifierFactory factory) {
        this.classifier = factory;
        return this;
    }

    public RequestClassifierFactory classifier() {
        return classifier;
    }

    /** The worker selector (the built-in KV-aware one by default). */
    public ClusterContext selector(WorkerSelectorFactory factory) {
        this.selector = Objects.requireNonNull(factory, "selector");
        return this;
    }

    public WorkerSelectorFactory selector() {
        return selector;
    }

    /** Sees the router's every input and decision, on the simulation thread (none by default). */
    public ClusterContext observer(SchedulerObserver schedulerObserver) {
        this.observer = Objects.requireNonNull(schedulerObserver, "observer");
        return this;
    }

    public SchedulerObserver observer() {
        return observer;
    }

    /** Seeds the router's selector and the engines' output tokens (the workload has its own seed). */
    public ClusterContext seed(long value) {
        this.seed = value;
        return this;
    }

    public long seed() {
        return seed;
    }

    /** The load window: sessions start within it, and throughput counts the turns completed within it. */
    public ClusterContext durationNs(long ns) {
        this.durationNs = ns;
        return this;
    }

    public long durationNs() {
        return durationNs;
    }

    /** How long after the window sessions may run on; whatever is still running then is cancelled. */
    public ClusterContext drainLimitNs(long ns) {
        this.drainLimitNs = ns;
        return this;
    }

    public long drainLimitNs() {
        return drainLimitNs;
    }

    /** How often the router's timers (deadlines, classifier tasks) are polled on the virtual clock. */
    public ClusterContext tickNs(long ns) {
        this.tickNs = ns;
        return this;
    }

    public long tickNs() {
        return tickNs;
    }

    /**
     * The router settings a run of this context uses, on a clock standing at the virtual start (0) and without the
     * observer: what a journal header records, so that a replay rebuilds the same router.
     */
    public RouterContext routerContext() {
        return new RouterContext().model(model).clock(() -> 0L).profile(profile).classifierFactory(classifier)
            .workerSelector(selector).randomSeed(seed).blockSize(engine.blockSize()).maxLiveRequests(ROUTER_LIMIT)
            .maxDeferrals(ROUTER_LIMIT);
    }

    void validate() {
        if (workers < 1 || workers > 1024) {
            throw new IllegalArgumentException("workers must be 1..1024, was " + workers);
        }
        if (durationNs <= 0 || drainLimitNs < 0 || tickNs <= 0) {
            throw new IllegalArgumentException("duration and tick must be > 0 and the drain limit >= 0");
        }
        engine.validate();
    }
}
