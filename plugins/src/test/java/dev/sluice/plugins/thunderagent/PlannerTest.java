package dev.sluice.plugins.thunderagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.RequestClassifierWorker;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The pause and resume planners on hand-built programs, as Dynamo's scheduler tests build them. */
class PlannerTest {
    private final Map<String, Program> programs = new LinkedHashMap<>();

    private Program program(String session, Program.Status status, long tokens, WorkerWithDpRank worker) {
        Program program = new Program(session, tokens);
        program.status = status;
        program.assignedWorker = worker;
        program.stepCount = 2;
        programs.put(session, program);
        return program;
    }

    private static CapacityView capacities(Map<WorkerWithDpRank, Long> tokens) {
        List<RequestClassifierWorker> workers = new ArrayList<>();
        tokens.forEach((worker, capacity) -> workers.add(new RequestClassifierWorker(worker,
            OptionalLong.of(capacity))));
        return CapacityView.of(workers, 1);
    }

    private Map<WorkerWithDpRank, Double> usage(ThunderAgentConfig config) {
        ThunderState state = new ThunderState();
        state.programs.putAll(programs);
        return state.usage(config);
    }

    /** Dynamo: greedy_resume_selects_scalar_set_then_packs_largest_first. */
    @Test
    void shouldResumeTheSetThatFitsAndPackItLargestFirst() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("pause_threshold", 1.0, "resume_hysteresis", 0.0,
            "pause_target", 1.0, "buffer_per_program", 100));
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        WorkerWithDpRank w2 = WorkerWithDpRank.of(2);
        for (Program p : List.of(program("small", Program.Status.ACTING, 1, null),
            program("medium", Program.Status.ACTING, 100, null), program("large", Program.Status.ACTING, 201, null))) {
            p.paused = true;
        }
        List<ResumePlanner.Placement> placements = ResumePlanner.greedy(programs.values(),
            capacities(Map.of(w1, 301L, w2, 301L)), usage(config), config);
        Map<String, WorkerWithDpRank> where = placements.stream()
            .collect(Collectors.toMap(p -> p.program().sessionId, ResumePlanner.Placement::worker));
        assertEquals(Map.of("large", w1, "medium", w2, "small", w2), where);
        assertEquals(List.of("large", "medium", "small"),
            placements.stream().map(p -> p.program().sessionId).toList());
    }

    @Test
    void shouldResumeOnlyThePrefixThatFitsTheAggregateRoom() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("pause_threshold", 1.0, "resume_hysteresis", 0.0,
            "pause_target", 1.0, "buffer_per_program", 0));
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        program("a", Program.Status.ACTING, 60, null).paused = true;
        program("b", Program.Status.ACTING, 50, null).paused = true;
        program("c", Program.Status.REASONING, 70, null).paused = true;
        List<ResumePlanner.Placement> placements = ResumePlanner.greedy(programs.values(),
            capacities(Map.of(w1, 125L)), usage(config), config);
        assertEquals(List.of("c", "b"), placements.stream().map(p -> p.program().sessionId).toList(),
            "reasoning continuations first, then fewest tokens, while the running total fits");
    }

    /** A large continuation at the head of the order holds back a small program that fits, unless first_fit. */
    @Test
    void shouldResumeWhatFitsBehindAProgramThatDoesNotOnlyWithFirstFit() {
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        program("c", Program.Status.REASONING, 70, null).paused = true;
        program("big", Program.Status.REASONING, 100, null).paused = true;
        program("small", Program.Status.ACTING, 10, null).paused = true;
        CapacityView view = capacities(Map.of(w1, 125L));
        Map<String, Object> watermarks = Map.of("pause_threshold", 1.0, "resume_hysteresis", 0.0, "pause_target",
            1.0, "buffer_per_program", 0);
        ThunderAgentConfig prefix = ThunderHarness.config(watermarks);
        assertEquals(List.of("c"), ResumePlanner.greedy(programs.values(), view, usage(prefix), prefix).stream()
            .map(p -> p.program().sessionId).toList(), "Dynamo stops at the first program that does not fit");
        Map<String, Object> firstFit = new HashMap<>(watermarks);
        firstFit.put("resume_packing", "first_fit");
        ThunderAgentConfig fit = ThunderHarness.config(firstFit);
        assertEquals(List.of(new ResumePlanner.Placement(programs.get("c"), w1),
            new ResumePlanner.Placement(programs.get("small"), w1)),
            ResumePlanner.greedy(programs.values(), view, usage(fit), fit));
    }

    /** Over the threshold with nothing acting: Dynamo marks every reasoning program, enough only the largest. */
    @Test
    void shouldMarkReasoningProgramsLargestFirstOnlyUntilTheTargetWithEnough() {
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        program("a", Program.Status.REASONING, 300, w1);
        program("b", Program.Status.REASONING, 500, w1);
        program("c", Program.Status.REASONING, 250, w1);
        program("acting", Program.Status.ACTING, 100, w1);
        CapacityView view = capacities(Map.of(w1, 1000L));
        ThunderAgentConfig enough = ThunderHarness.config(Map.of("buffer_per_program", 0, "pause_marking", "enough"));
        assertTrue(PausePlanner.pauseUntilSafe(programs.values(), view, usage(enough), enough, 0));
        // 1150 > 950: pausing the acting program leaves 1050 > 800; marking b (500) leaves 550 <= 800.
        assertTrue(programs.get("acting").paused);
        assertEquals(List.of("b"), programs.values().stream().filter(p -> p.markedForPause).map(p -> p.sessionId)
            .toList());

        programs.values().forEach(p -> {
            p.markedForPause = false;
            p.paused = false;
            p.assignedWorker = w1;
        });
        ThunderAgentConfig all = ThunderHarness.config(Map.of("buffer_per_program", 0));
        assertTrue(PausePlanner.pauseUntilSafe(programs.values(), view, usage(all), all, 0));
        assertEquals(List.of("a", "b", "c"), programs.values().stream().filter(p -> p.markedForPause)
            .map(p -> p.sessionId).toList());
    }

    /** Dynamo: pause_isolates_worker_ranks_and_stops_acting_at_target. */
    @Test
    void shouldPauseSmallestActingProgramsPerRankUntilTargetAndMarkReasoningOnes() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("buffer_per_program", 0));
        WorkerWithDpRank r2 = new WorkerWithDpRank(7, 2);
        WorkerWithDpRank r3 = new WorkerWithDpRank(7, 3);
        WorkerWithDpRank r4 = new WorkerWithDpRank(7, 4);
        WorkerWithDpRank other = new WorkerWithDpRank(8, 2);
        program("small", Program.Status.ACTING, 200, r2);
        program("large", Program.Status.ACTING, 300, r2);
        program("running", Program.Status.REASONING, 500, r2);
        program("reasoning-a", Program.Status.REASONING, 400, r3);
        program("reasoning-b", Program.Status.REASONING, 600, r3);
        program("healthy", Program.Status.ACTING, 100, r4);
        program("other-worker", Program.Status.ACTING, 100, other);
        program("paused", Program.Status.ACTING, 100, null).paused = true;
        program("unassigned", Program.Status.REASONING, 10_000, null);
        Map<WorkerWithDpRank, Long> capacity = new HashMap<>();
        for (WorkerWithDpRank rank : List.of(r2, r3, r4, other)) {
            capacity.put(rank, 1000L);
        }
        CapacityView view = capacities(capacity);

        assertTrue(PausePlanner.pauseUntilSafe(programs.values(), view, usage(config), config, 0));
        Set<String> paused = programs.values().stream().filter(p -> p.paused).map(p -> p.sessionId)
            .collect(Collectors.toSet());
        assertEquals(Set.of("small", "paused"), paused);
        assertEquals(800.0, usage(config).get(r2));
        assertEquals(1000.0, usage(config).get(r3));
        assertTrue(programs.get("reasoning-a").markedForPause && programs.get("reasoning-b").markedForPause);
        assertEquals(r3, programs.get("reasoning-a").assignedWorker);
        for (String untouched : List.of("large", "running", "healthy", "other-worker", "unassigned")) {
            assertFalse(programs.get(untouched).paused || programs.get(untouched).markedForPause, untouched);
        }
        assertFalse(PausePlanner.pauseUntilSafe(programs.values(), view, usage(config), config, 0));
    }

    /** Paper mode: an acting program idle for two half-lives charges a quarter of its tokens to pause decisions. */
    @Test
    void shouldDecideOnDecayedActingUsageInPaperMode() {
        ThunderAgentConfig paper = ThunderHarness.config(Map.of("mode", "paper", "buffer_per_program", 0));
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        program("running", Program.Status.REASONING, 600, w1);
        program("idle", Program.Status.ACTING, 800, w1).actingSinceNs = 0;
        CapacityView view = capacities(Map.of(w1, 1000L));
        ThunderState state = new ThunderState();
        state.programs.putAll(programs);
        long twoHalfLives = 2_000_000_000L;
        // Charged in full (1400 > 1000) the idle program would be paused; decayed it charges 200: 800 <= 1000.
        assertFalse(PausePlanner.pauseUntilSafe(programs.values(), view, state.decayedUsage(paper, twoHalfLives),
            paper, twoHalfLives));
        assertFalse(programs.get("idle").paused);
        assertTrue(PausePlanner.pauseUntilSafe(programs.values(), view, state.decayedUsage(paper, 0), paper, 0));
        assertTrue(programs.get("idle").paused);
    }

    /** Dynamo: equal_size_pause_candidates_keep_their_existing_order. */
    @Test
    void shouldPauseTheFirstOfEqualCandidates() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("buffer_per_program", 0));
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        program("first", Program.Status.ACTING, 100, w1);
        program("second", Program.Status.ACTING, 100, w1);
        program("third", Program.Status.ACTING, 100, w1);
        assertTrue(PausePlanner.pauseUntilSafe(programs.values(), capacities(Map.of(w1, 300L)), usage(config),
            config, 0));
        assertTrue(programs.get("first").paused);
        assertNull(programs.get("first").assignedWorker);
        assertFalse(programs.get("second").paused || programs.get("third").paused);
    }

    @Test
    void shouldForceTimedOutProgramsOntoTheWorkerWithMostCapacityLeftAfterDecay() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("resume_timeout_seconds", 1,
            "buffer_per_program", 0));
        WorkerWithDpRank w1 = WorkerWithDpRank.of(1);
        WorkerWithDpRank w2 = WorkerWithDpRank.of(2);
        long now = 100_000_000_000L;
        Program idle = program("idle", Program.Status.ACTING, 900, w1);
        idle.actingSinceNs = now - 10_000_000_000L;
        program("busy", Program.Status.REASONING, 300, w2);
        Program waiting = program("waiting", Program.Status.REASONING, 100, null);
        waiting.paused = true;
        waiting.deferredSinceNs = now - 2_000_000_000L;
        ThunderState state = new ThunderState();
        state.programs.putAll(programs);
        List<ResumePlanner.Placement> forced = ResumePlanner.forced(programs.values(),
            capacities(Map.of(w1, 1000L, w2, 1000L)), state.decayedUsage(config, now), config, now);
        assertEquals(List.of(new ResumePlanner.Placement(waiting, w1)), forced,
            "900 acting tokens idle for 10 half-lives count as almost nothing");
    }
}
