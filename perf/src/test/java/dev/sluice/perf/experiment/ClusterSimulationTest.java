package dev.sluice.perf.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.simulation.ClusterContext;
import dev.sluice.transport.simulation.ClusterReport;
import dev.sluice.transport.simulation.ClusterSimulation;
import dev.sluice.transport.simulation.SessionPlan;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The harness itself: repeatable for a seed, every turn ends exactly once, continuations reuse the cache. */
class ClusterSimulationTest {
    private static final long SECOND = 1_000_000_000L;

    private static AgentWorkload agents(long seed) {
        return new AgentWorkload(30 * SECOND, 2.0, 1000, 800, 3, 6, 600, 100, 2 * SECOND, seed);
    }

    private static ClusterContext smallFleet(String label) {
        return new ClusterContext().label(label).workers(2).engine(new SimEngineContext().numGpuBlocks(256))
            .durationNs(30 * SECOND);
    }

    /** The report without its wall-clock time, the only figure that may differ between identical runs. */
    private static ClusterReport virtual(ClusterReport r) {
        return new ClusterReport(r.label(), r.windowNs(), r.endNs(), r.sessions(), r.sessionsFinished(),
            r.turnsSubmitted(), r.turnsCompleted(), r.turnsInWindow(), r.rejected(), r.gaveUp(), r.cutAtEnd(),
            r.failed(), r.duplicateEnds(), r.ttftP50Ms(), r.ttftP99Ms(), r.waitP50Ms(), r.waitP99Ms(), r.prefill(),
            r.essentialTokens(), r.router(), 0);
    }

    @Test
    void shouldRepeatEveryNumberForTheSameSeed() {
        List<SessionPlan> sessions = agents(7).generate();
        ClusterReport first = ClusterSimulation.run(smallFleet("a").seed(7), sessions);
        ClusterReport second = ClusterSimulation.run(smallFleet("a").seed(7), agents(7).generate());
        assertEquals(virtual(first), virtual(second));
        assertTrue(first.turnsCompleted() > 100, "the run did real work: " + first);
        ClusterReport other = ClusterSimulation.run(smallFleet("a").seed(8), agents(8).generate());
        assertTrue(!virtual(first).equals(virtual(other)), "another seed is another run");
    }

    @Test
    void shouldEndEveryTurnExactlyOnceWhenClientsGiveUpAndTheDrainLimitCuts() {
        // One small worker, long prompts and impatient clients: some give up while queued in the engine, and the
        // drain limit cuts whatever still runs.
        List<SessionPlan> sessions = new ArrayList<>();
        WorkloadRandom random = new WorkloadRandom(3);
        for (int n = 0; n < 200; n++) {
            List<SessionPlan.Turn> turns = List.of(
                new SessionPlan.Turn(random.tokens(3000), 400, 0, n % 2 == 0 ? 2 * SECOND : 0),
                new SessionPlan.Turn(random.tokens(500), 400, SECOND, 0));
            sessions.add(new SessionPlan("s-" + n, n * 50_000_000L, -1, new int[0], turns, n % 3 == 0));
        }
        ClusterReport report = ClusterSimulation.run(new ClusterContext().workers(1)
            .engine(new SimEngineContext().numGpuBlocks(512).maxNumSeqs(8)).durationNs(10 * SECOND)
            .drainLimitNs(20 * SECOND), sessions);
        assertTrue(report.gaveUp() > 0, "impatient clients left: " + report);
        assertTrue(report.cutAtEnd() > 0, "the drain limit cut running turns: " + report);
        assertTrue(report.turnsCompleted() > 0, report.toString());
        assertEquals(0, report.duplicateEnds());
        assertEquals(report.turnsSubmitted(), report.turnsCompleted() + report.gaveUp() + report.cutAtEnd()
            + report.rejected() + report.failed());
        assertEquals(report.turnsSubmitted(), report.router().arrived());
        assertEquals(0, report.router().live());
        assertTrue(report.balanced());
    }

    /**
     * Cutting at the drain limit aborts every queued turn at once; each abort is a lifecycle message the router's
     * ring must hold until the router runs. With more queued turns than the ring's 16,384 slots this once blocked
     * the simulation thread, the router's only stepper, for good (the timeout turns a regression into a failure).
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldCutMoreQueuedTurnsThanTheRouterRingHolds() {
        List<SessionPlan> sessions = new ArrayList<>();
        WorkloadRandom random = new WorkloadRandom(5);
        for (int n = 0; n < 20_000; n++) {
            List<SessionPlan.Turn> turn = List.of(new SessionPlan.Turn(random.tokens(64), 1000, 0, 0));
            sessions.add(new SessionPlan("s-" + n, n * 10_000L, -1, new int[0], turn, false));
        }
        ClusterReport report = ClusterSimulation.run(new ClusterContext().workers(1)
            .profile(PolicyProfile.synthetic(OptionalDouble.of(0.0), QueuePolicy.FCFS)).durationNs(SECOND)
            .drainLimitNs(0), sessions);
        assertTrue(report.cutAtEnd() > 16_384, report.toString());
        assertTrue(report.balanced(), report.toString());
    }

    @Test
    void shouldEndEveryTurnExactlyOnceUnderThunderAgent() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());
        var policy = RouterPolicyLoader.parse(AgentExperiment.bundledPolicy(), "thunderagent.yaml");
        ClusterReport report = ClusterSimulation.run(smallFleet("thunderagent").drainLimitNs(60 * SECOND)
            .classifier(registry.resolveRequestClassifier(policy.requestClassifier()).orElseThrow())
            .selector(registry.resolveWorkerSelector(policy.workerSelection(), "aggregated")), agents(5).generate());
        assertTrue(report.router().parked() > 0, "KV pressure made ThunderAgent hold turns: " + report);
        assertTrue(report.balanced(), report.toString());
        assertEquals(report.turnsSubmitted(), report.router().arrived());
    }

    @Test
    void shouldPrefillOnlyTheNewTextOfAContinuationOnItsWorker() {
        WorkloadRandom random = new WorkloadRandom(11);
        List<SessionPlan.Turn> turns = List.of(new SessionPlan.Turn(random.tokens(2000), 300, 0, 0),
            new SessionPlan.Turn(random.tokens(500), 300, SECOND, 0),
            new SessionPlan.Turn(random.tokens(500), 300, SECOND, 0));
        ClusterReport report = ClusterSimulation.run(new ClusterContext().workers(1).durationNs(10 * SECOND),
            List.of(new SessionPlan("one", 0, -1, new int[0], turns, true)));
        assertEquals(3, report.turnsCompleted());
        // The answer the engine generated is the prefix of the next prompt, block for block: nothing is re-prefilled.
        assertEquals(0, report.rePrefilledTokens(), report.toString());
        assertTrue(report.prefill().hitRate() > 0.5, report.toString());
    }
}
