package dev.sluice.transport.simulation;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.sim.PrefillCounters;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.engine.sim.SimulatedFleet;
import dev.sluice.transport.engine.sim.VirtualClockDriver;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.IntFunction;
import org.agrona.collections.IntHashSet;

/**
 * A router and a simulated fleet on one virtual clock, playing a workload of sessions. The router is a
 * {@linkplain ModelRouter#manual manual} one whose clock is the {@link VirtualClockDriver}'s; the driver steps it with
 * the workers, so a dispatch reaches its engine, and an engine's KV events and lifecycle reports reach the router,
 * at the same virtual instant. The router's timers are polled every {@link ClusterContext#tickNs}. Sessions start
 * within the load window; after it, running sessions go on until the drain limit, where every turn still running
 * is cancelled. Everything runs on the calling thread; one instance runs once.
 */
public final class ClusterSimulation {
    final ClusterMetrics metrics;
    final ModelRouter router;
    /** The window counters of a closed-loop run, or {@code null}. */
    ClosedLoopMetrics closedLoop;
    private IntFunction<SessionPlan> replacements;
    private int programsStarted;
    private final ClusterContext context;
    private final VirtualClockDriver driver = new VirtualClockDriver();
    private final SimulatedFleet fleet;
    private final BlockHasher hasher;
    private final LinkedHashSet<TurnRun> live = new LinkedHashSet<>();
    private final IntHashSet systemPromptsUsed = new IntHashSet();
    private int sessionsPending;
    private int sessionsOpen;
    private int arrivalsOpen;
    private boolean stopping;

    private ClusterSimulation(ClusterContext context) {
        context.validate();
        this.context = context;
        this.metrics = new ClusterMetrics(context.durationNs());
        SimEngineContext engine = context.engine().validate().seed(context.seed());
        this.hasher = new BlockHasher(engine.blockSize());
        this.router = ModelRouter.manual(context.routerContext().clock(driver.clock()).observer(context.observer()));
        this.fleet = SimulatedFleet.onVirtualClock(engine, context.workers(), router::kvEvent, driver);
        driver.attachStepper(router::doWork);
        for (int w = 0; w < context.workers(); w++) {
            for (int rank = 0; rank < engine.dpSize(); rank++) {
                router.workerJoined(new WorkerWithDpRank(w, rank), engine.maxNumBatchedTokens(),
                    OptionalLong.of(engine.numGpuBlocks()));
            }
        }
    }

    /** Plays {@code sessions} (those starting within the load window) and reports. */
    public static ClusterReport run(ClusterContext context, List<SessionPlan> sessions) {
        return run(context, sessions, List.of());
    }

    /** Plays {@code sessions} and {@code arrivals} (those starting within the load window) and reports. */
    public static ClusterReport run(ClusterContext context, List<SessionPlan> sessions, List<Arrival> arrivals) {
        return run(context, sessions, arrivals, List.of());
    }

    /**
     * {@link #run(ClusterContext, List, List)}, with {@code actions} done to the router at their instants (a policy
     * reload, say) on the simulation thread, as an operator would between two of its duty cycles.
     */
    public static ClusterReport run(ClusterContext context, List<SessionPlan> sessions, List<Arrival> arrivals,
                                    List<RouterAction> actions) {
        long wallStart = System.nanoTime();
        ClusterSimulation simulation = new ClusterSimulation(context);
        try {
            for (RouterAction action : actions) {
                simulation.driver.at(action.atNs(), () -> action.action().accept(simulation.router));
            }
            return simulation.play(sessions, arrivals, wallStart);
        } finally {
            simulation.router.close();
            simulation.fleet.close();
        }
    }

    /**
     * A closed-loop run: {@code parallel} programs, the i-th from {@code programs.apply(i)}, the first ones started
     * {@code staggerNs} apart, each replaced at once when it ends, until the context's load window ends; then every
     * turn still running is cancelled (the context's drain limit is not used). Counts only what ends after
     * {@code warmupNs}.
     */
    public static ClosedLoopReport runClosedLoop(ClusterContext context, int parallel, long warmupNs,
                                                 long staggerNs, IntFunction<SessionPlan> programs) {
        if (parallel < 1 || warmupNs < 0 || warmupNs >= context.durationNs() || staggerNs < 0) {
            throw new IllegalArgumentException("closed loop needs parallel >= 1 and 0 <= warm-up < window end, was "
                + parallel + " programs, warm-up " + warmupNs + " ns of " + context.durationNs());
        }
        long wallStart = System.nanoTime();
        ClusterSimulation simulation = new ClusterSimulation(context.drainLimitNs(0));
        try {
            simulation.closedLoop = new ClosedLoopMetrics(warmupNs);
            simulation.replacements = programs;
            List<SessionPlan> first = new ArrayList<>(parallel);
            for (int i = 0; i < parallel; i++) {
                SessionPlan p = programs.apply(simulation.programsStarted++);
                first.add(new SessionPlan(p.sessionId(), i * staggerNs, p.systemPromptId(), p.systemPrompt(),
                    p.turns(), p.sessionHeader(), p.policyClass()));
            }
            simulation.driver.at(warmupNs, () -> simulation.closedLoop.windowStarted(simulation.prefillTotal()));
            ClusterReport whole = simulation.play(first, List.of(), wallStart);
            return simulation.closedLoop.report(context.label(), parallel, context.durationNs() - warmupNs,
                whole.prefill(), whole.balanced(), System.nanoTime() - wallStart);
        } finally {
            simulation.router.close();
            simulation.fleet.close();
        }
    }

    private PrefillCounters prefillTotal() {
        PrefillCounters prefill = PrefillCounters.ZERO;
        for (int w = 0; w < fleet.size(); w++) {
            for (int rank = 0; rank < context.engine().dpSize(); rank++) {
                prefill = prefill.plus(fleet.worker(w).prefillCounters(rank));
            }
        }
        return prefill;
    }

    private ClusterReport play(List<SessionPlan> sessions, List<Arrival> arrivals, long wallStart) {
        for (SessionPlan plan : sessions) {
            if (plan.startNs() < context.durationNs()) {
                sessionsPending++;
                driver.at(plan.startNs(), () -> startSession(plan));
            }
        }
        for (Arrival arrival : arrivals) {
            if (arrival.atNs() < context.durationNs()) {
                arrivalsOpen++;
                driver.at(arrival.atNs(), () -> new ArrivalRun(this, arrival).start());
            }
        }
        driver.at(0, this::tick);
        long limit = context.durationNs() + context.drainLimitNs();
        if (!driver.runUntilIdle(limit)) {
            stopping = true;
            for (TurnRun run : List.copyOf(live)) {
                run.cancel(ClusterMetrics.Outcome.CUT_AT_END);
                // An abort is a lifecycle message, published without dropping: more cancellations than the ring
                // holds would block this thread, the router's only stepper, so the router takes each one at once.
                router.doWork();
            }
            // Cancellations end at the engines' next pass boundary; a generous bound only guards against a bug.
            driver.runUntilIdle(limit + 3_600_000_000_000L);
        }
        PrefillCounters prefill = prefillTotal();
        RouterStatistics stats = router.stats();
        return metrics.report(context.label(), prefill, stats, System.nanoTime() - wallStart);
    }

    private void tick() {
        if (sessionsPending > 0 || sessionsOpen > 0 || arrivalsOpen > 0 || router.stats().live() > 0) {
            driver.after(context.tickNs(), this::tick);
        }
    }

    private void startSession(SessionPlan plan) {
        sessionsPending--;
        sessionsOpen++;
        metrics.sessions++;
        new SessionRun(this, plan).start();
    }

    void submit(TurnRun run, AdmissionRequest request) {
        metrics.turnsSubmitted++;
        live.add(run);
        run.submitted(router.submit(request, driver.nanoTime(), run));
    }

    void turnEnded(TurnRun run, ClusterMetrics.Outcome outcome) {
        live.remove(run);
        metrics.ended(outcome, driver.nanoTime());
    }

    void arrivalEnded() {
        arrivalsOpen--;
    }

    void sessionEnded(SessionRun session, boolean finished) {
        sessionsOpen--;
        if (finished) {
            metrics.sessionsFinished++;
            if (closedLoop != null) {
                closedLoop.programFinished(now(), now() - session.startedNs());
            }
        }
        if (replacements != null && !stopping && now() < context.durationNs()) {
            sessionsPending++;
            startSession(replacements.apply(programsStarted++));
        }
    }

    /**
     * The essential prefill tokens of a dispatched turn (see {@link ClusterReport}): its prompt minus the complete
     * blocks of the previous context, or of a system prompt an earlier turn already used.
     */
    long essentialTokens(SessionRun session, TurnRun run) {
        long reusable;
        if (run.turn > 0) {
            reusable = session.context.length;
        } else if (session.plan.systemPromptId() >= 0 && !systemPromptsUsed.add(session.plan.systemPromptId())) {
            reusable = session.plan.systemPrompt().length;
        } else {
            reusable = 0;
        }
        return run.prompt.length - reusable / hasher.blockSize() * hasher.blockSize();
    }

    Engine engine(WorkerWithDpRank worker) {
        return fleet.worker((int) worker.workerId());
    }

    boolean stopping() {
        return stopping;
    }

    long now() {
        return driver.nanoTime();
    }

    void after(long delayNs, Runnable task) {
        driver.after(delayNs, task);
    }

    BlockHasher hasher() {
        return hasher;
    }

    int blockSize() {
        return hasher.blockSize();
    }
}
