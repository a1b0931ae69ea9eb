package dev.sluice.core.router;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.SharedBudgets;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.BookingObserver;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.scheduler.ClassifierHost;
import dev.sluice.core.scheduler.CombiningScheduler;
import dev.sluice.core.scheduler.GenerationTimers;
import dev.sluice.core.scheduler.IngressProxy;
import dev.sluice.core.scheduler.PeriodicTasks;
import dev.sluice.core.scheduler.PluginCallGuard;
import dev.sluice.core.scheduler.RouterCounters;
import dev.sluice.core.scheduler.RouterSignals;
import dev.sluice.core.scheduler.SchedulerParts;
import dev.sluice.core.scheduler.WakeableIdleStrategy;
import dev.sluice.core.scheduler.WorkerTable;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.WorkerSelectorFactory;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.agrona.BitUtil;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * Configuration of one model router, set fluently, then concluded once by the {@link ModelRouter} it configures,
 * which validates it and builds the router's parts from it (Aeron's {@code Context.conclude()}). Defaults: the
 * system clock, the synthetic profile (queueing off), the pass-through classifier, the built-in worker selector, a
 * 16384-slot ingress ring. Not thread-safe: configure it on one thread, then hand it to the router.
 */
public final class RouterContext {
    private String model = "default";
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private PolicyProfile profile = PolicyProfile.synthetic(OptionalDouble.empty(), QueuePolicy.FCFS);
    private RequestClassifierFactory classifierFactory;
    private int blockSize = 16;
    private int ringSize = 1 << 14;
    private int maxLiveRequests = 1 << 16;
    private int maxDeferrals = 100_000;
    private int overloadStatus = OverloadStatus.DEFAULT;
    private IdleStrategy idleStrategy;
    private boolean combine;
    private int eventsPerDutyCycle = 256;
    private SchedulerObserver observer = SchedulerObserver.NONE;
    private BookingObserver bookings = BookingObserver.NONE;
    private WorkerSelectorFactory workerSelector = DefaultWorkerSelector.factory(DefaultSelectorSettings.DEFAULTS);
    private long randomSeed = 42;
    private long watchdogThresholdNs = 100_000_000L;
    private long classificationTimeoutNs;
    private SharedBudgets sharedBudgets = SharedBudgets.NONE;
    private boolean concluded;

    /** The defaults above; set what differs fluently. */
    public RouterContext() {
    }

    /**
     * An unconcluded copy of these settings, for a host that derives a router's context from a template it must not
     * change (or starts several routers from one).
     */
    public RouterContext copy() {
        RouterContext copy = new RouterContext();
        copy.model = model;
        copy.clock = clock;
        copy.profile = profile;
        copy.classifierFactory = classifierFactory;
        copy.blockSize = blockSize;
        copy.ringSize = ringSize;
        copy.maxLiveRequests = maxLiveRequests;
        copy.maxDeferrals = maxDeferrals;
        copy.overloadStatus = overloadStatus;
        copy.idleStrategy = idleStrategy;
        copy.combine = combine;
        copy.eventsPerDutyCycle = eventsPerDutyCycle;
        copy.observer = observer;
        copy.bookings = bookings;
        copy.workerSelector = workerSelector;
        copy.randomSeed = randomSeed;
        copy.watchdogThresholdNs = watchdogThresholdNs;
        copy.classificationTimeoutNs = classificationTimeoutNs;
        copy.sharedBudgets = sharedBudgets;
        return copy;
    }

    public RouterContext model(String name) {
        this.model = Objects.requireNonNull(name, "model");
        return this;
    }

    public String model() {
        return model;
    }

    /** The router's monotonic clock; tests pass a manual one. */
    public RouterContext clock(NanoClock nanoClock) {
        this.clock = Objects.requireNonNull(nanoClock, "clock");
        return this;
    }

    public NanoClock clock() {
        return clock;
    }

    /** The policy profile this router queues by. */
    public RouterContext profile(PolicyProfile policyProfile) {
        this.profile = Objects.requireNonNull(policyProfile, "profile");
        return this;
    }

    public PolicyProfile profile() {
        return profile;
    }

    /** The classifier factory from the plugin registry; {@code null} means pass-through. */
    public RouterContext classifierFactory(RequestClassifierFactory factory) {
        this.classifierFactory = factory;
        return this;
    }

    public RequestClassifierFactory classifierFactory() {
        return classifierFactory;
    }

    /**
     * The rate buckets this router shares with its replicas (a NATS key-value store in {@code serve}), given to the
     * classifier's context for cluster-scoped limits. Default {@link SharedBudgets#NONE}.
     */
    public RouterContext sharedBudgets(SharedBudgets budgets) {
        this.sharedBudgets = Objects.requireNonNull(budgets, "sharedBudgets");
        return this;
    }

    public SharedBudgets sharedBudgets() {
        return sharedBudgets;
    }

    /** Tokens per KV block, given to the classifier's context. */
    public RouterContext blockSize(int tokens) {
        this.blockSize = tokens;
        return this;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Slots of the ingress ring (a power of two); arrivals are refused before lifecycle events run short. */
    public RouterContext ringSize(int slots) {
        this.ringSize = slots;
        return this;
    }

    public int ringSize() {
        return ringSize;
    }

    /** Live lifecycles at most; further arrivals are refused with the overload status. */
    public RouterContext maxLiveRequests(int limit) {
        this.maxLiveRequests = limit;
        return this;
    }

    public int maxLiveRequests() {
        return maxLiveRequests;
    }

    /** Continuations running at once at most; further deferrals fail their request with the overload status. */
    public RouterContext maxDeferrals(int limit) {
        this.maxDeferrals = limit;
        return this;
    }

    public int maxDeferrals() {
        return maxDeferrals;
    }

    /** The status for capacity rejections ({@link OverloadStatus#fromEnvironment()} in a server). */
    public RouterContext overloadStatus(int status) {
        this.overloadStatus = status;
        return this;
    }

    public int overloadStatus() {
        return overloadStatus;
    }

    /** How the scheduler thread waits for work (see {@link #schedulerIdle(SchedulerIdle)}). */
    public enum SchedulerIdle {
        /**
         * The default: busy-spin for 50 µs after the last work, yield for 200 µs, then park until a producer hands it
         * work (or for at most a millisecond, for timers). Arrivals closer together than that window never pay for a
         * wake-up; an idle router costs no CPU.
         */
        WAIT,
        /** Busy-spin always: no wake-up latency at any rate, and a whole core, even when idle. */
        SPIN,
        /**
         * Producers run the scheduler's duty cycle when it is idle: a producer that finds the scheduler idle runs
         * the cycle on its own thread (its message and any others queued meanwhile), so an uncontended decision
         * costs no wake-up; under contention messages batch on whichever thread holds the cycle, and the scheduler
         * thread takes over past a few cycles and keeps timers running. Listeners and plugins are then called on that
         * thread, one at a time, not always on the scheduler thread.
         */
        COMBINE
    }

    /**
     * How the scheduler thread waits for work: {@link SchedulerIdle#WAIT} (the default), {@link SchedulerIdle#SPIN}
     * for a core set aside for the scheduler, or {@link SchedulerIdle#COMBINE} (producers run an idle scheduler's
     * cycle). Replaces a strategy given to {@link #idleStrategy(IdleStrategy)}.
     */
    public RouterContext schedulerIdle(SchedulerIdle mode) {
        this.idleStrategy = Objects.requireNonNull(mode, "schedulerIdle") == SchedulerIdle.SPIN
            ? new BusySpinIdleStrategy() : null;
        this.combine = mode == SchedulerIdle.COMBINE;
        return this;
    }

    /**
     * How the scheduler thread idles when there is no work, as any Agrona strategy, used as it is. By default
     * ({@code null}, or {@link SchedulerIdle#WAIT}) it spins, yields, then parks, and producers wake it only when it
     * is parked.
     */
    public RouterContext idleStrategy(IdleStrategy strategy) {
        this.idleStrategy = Objects.requireNonNull(strategy, "idleStrategy");
        this.combine = false;
        return this;
    }

    /** The configured strategy, or {@code null} for the default wakeable one. */
    public IdleStrategy idleStrategy() {
        return idleStrategy;
    }

    /** Ring messages handled per duty cycle before timers and the inbox get a turn. */
    public RouterContext eventsPerDutyCycle(int events) {
        this.eventsPerDutyCycle = events;
        return this;
    }

    public int eventsPerDutyCycle() {
        return eventsPerDutyCycle;
    }

    /** Sees every input and decision on the scheduler thread (journal, metrics). */
    public RouterContext observer(SchedulerObserver schedulerObserver) {
        this.observer = Objects.requireNonNull(schedulerObserver, "observer");
        return this;
    }

    public SchedulerObserver observer() {
        return observer;
    }

    /** Hears the router's own bookings on the scheduler thread (replica sync); default: none. */
    public RouterContext bookingObserver(BookingObserver bookingObserver) {
        this.bookings = Objects.requireNonNull(bookingObserver, "bookingObserver");
        return this;
    }

    public BookingObserver bookingObserver() {
        return bookings;
    }

    /** The worker selector for this router (from the registry's {@code worker_selection}); default: built-in. */
    public RouterContext workerSelector(WorkerSelectorFactory factory) {
        this.workerSelector = Objects.requireNonNull(factory, "workerSelector");
        return this;
    }

    public WorkerSelectorFactory workerSelector() {
        return workerSelector;
    }

    /** The seed of the selector's random source (temperature sampling), so runs and replays repeat. */
    public RouterContext randomSeed(long seed) {
        this.randomSeed = seed;
        return this;
    }

    public long randomSeed() {
        return randomSeed;
    }

    /**
     * Duty cycles longer than this (wall-clock) are counted and logged with the scheduler's stack: a plugin is
     * blocking the scheduler. Default 100 ms; 0 turns the watchdog off. Only routers with their own thread have one.
     */
    public RouterContext watchdogThreshold(java.time.Duration threshold) {
        if (threshold.isNegative()) {
            throw new IllegalArgumentException("the watchdog threshold must not be negative, was " + threshold);
        }
        this.watchdogThresholdNs = threshold.toNanos();
        return this;
    }

    public long watchdogThresholdNs() {
        return watchdogThresholdNs;
    }

    /**
     * How long one request's classification may take, deferrals and parks included; past it the request is
     * rejected with 504 {@code classifier_timeout}, its continuation interrupted, and the classifier sees one
     * {@code Aborted}. On a router with its own thread, a {@code classify} or {@code onEvent} call that blocks the
     * scheduler this long is interrupted too (a plugin blocked without looking at interrupts cannot be cut; the
     * watchdog reports it). Default 0: no timeout, as in Dynamo, where a plugin bounds its own waits.
     */
    public RouterContext classificationTimeout(java.time.Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("the classification timeout must not be negative, was " + timeout);
        }
        this.classificationTimeoutNs = timeout.toNanos();
        return this;
    }

    public long classificationTimeoutNs() {
        return classificationTimeoutNs;
    }

    /**
     * Validates the settings, fills the defaults and builds the scheduler's parts: the ingress ring, the clock, the
     * counters, the worker table with its selector, and the classifier behind its host. The one place a router is
     * assembled; a context is concluded once, by the router it configures, and a second router needs a fresh one.
     *
     * @param ownThread true when the scheduler gets its own thread (plugin calls can then be timed and cut).
     */
    SchedulerParts conclude(boolean ownThread) {
        if (concluded) {
            throw new IllegalStateException("this RouterContext already configured a router; give each router its own");
        }
        if (!BitUtil.isPowerOfTwo(ringSize) || ringSize < 16) {
            throw new IllegalArgumentException("ringSize must be a power of two >= 16, was " + ringSize);
        }
        requirePositive("blockSize", blockSize);
        requirePositive("maxLiveRequests", maxLiveRequests);
        requirePositive("maxDeferrals", maxDeferrals);
        requirePositive("eventsPerDutyCycle", eventsPerDutyCycle);
        if (overloadStatus < 200 || overloadStatus > 999) {
            throw new IllegalArgumentException("overloadStatus must be 200..999, was " + overloadStatus);
        }
        concluded = true;
        WakeableIdleStrategy wakeable = new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_MAX_PARK_NS);
        // Combining needs a scheduler thread to hand back to; a stepped router runs every cycle on its caller anyway.
        CombiningScheduler combining = ownThread && combine
            ? new CombiningScheduler(WakeableIdleStrategy.DEFAULT_MAX_PARK_NS) : null;
        IngressProxy ingress = combining != null ? new IngressProxy(ringSize, combining)
            : new IngressProxy(ringSize, wakeable);
        RouterSignals signals = new RouterSignals(combining != null ? combining::wakeScheduler : wakeable::wake);
        RouterCounters counters = new RouterCounters(model);
        WorkerTable workers = new WorkerTable(blockSize, Objects.requireNonNull(workerSelector.create(
            new WorkerSelectorContext(model, blockSize, new SplittableRandom(randomSeed))),
            "the worker selector factory returned null"), bookings);
        PeriodicTasks periodic = new PeriodicTasks();
        PluginCallGuard guard = ownThread && classificationTimeoutNs > 0
            ? new PluginCallGuard(classificationTimeoutNs) : null;
        ClassifierHost classifier = classifierHost(classifierFactory, model, blockSize, clock, workers, periodic,
            guard, counters, sharedBudgets);
        return new SchedulerParts(model, clock, profile, ingress, signals, wakeable, combining, counters, workers,
            periodic, classifier, guard, CompositeObserver.guarding(observer),
            maxLiveRequests, maxDeferrals, eventsPerDutyCycle, classificationTimeoutNs);
    }

    /**
     * A classifier instance from {@code factory} ({@code null}: pass-through) behind its host, with periodic tasks of
     * its own: at assembly, and again when a policy reload changes the {@code request_classifier} section.
     */
    static ClassifierHost classifierHost(RequestClassifierFactory factory, String model, int blockSize,
                                         NanoClock clock, WorkerTable workers, PeriodicTasks periodic,
                                         PluginCallGuard guard, RouterCounters counters, SharedBudgets budgets) {
        GenerationTimers timers = new GenerationTimers(periodic);
        RequestClassifierContext classifierContext = new RequestClassifierContext(model, blockSize,
            workers::snapshot, clock, timers, workers::usedKvBlocks, budgets);
        RequestClassifier classifier = factory == null ? new RequestClassifier() { }
            : Objects.requireNonNull(factory.create(classifierContext),
                "the request classifier factory returned null");
        return new ClassifierHost(classifier, guard, counters, timers);
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }
}
