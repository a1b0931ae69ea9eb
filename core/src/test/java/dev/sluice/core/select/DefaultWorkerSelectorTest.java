package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.WorkerSelector;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The built-in cost and selection of dynamo-mocker.md §7.4. */
class DefaultWorkerSelectorTest {
    private static final int BLOCK_SIZE = 16;
    private static final WorkerWithDpRank A = WorkerWithDpRank.of(1);
    private static final WorkerWithDpRank B = WorkerWithDpRank.of(2);
    private static final WorkerWithDpRank C = WorkerWithDpRank.of(3);

    private final SelectionCandidates inputs = new SelectionCandidates();

    private static DefaultWorkerSelector selector(double weight, double temperature, long seed) {
        return new DefaultWorkerSelector(BLOCK_SIZE, new DefaultSelectorSettings(weight, temperature),
            new SplittableRandom(seed));
    }

    /** A 100-token (6-block) request over three workers with different cache hits and load. */
    private SelectionCandidates threeWorkers(WorkerWithDpRank softTarget) {
        inputs.reset(100, 6, softTarget, null);
        inputs.add(A, 4, 3).load(40, 10);
        inputs.add(B, 0, 6).load(0, 1);
        inputs.add(C, 6, 0).load(0, 21);
        return inputs;
    }

    @Test
    void shouldCostPrefillBlocksTimesTheWeightPlusDecodeBlocks() {
        threeWorkers(null);
        DefaultWorkerSelector selector = selector(1.0, 0, 1);

        // A: (40 + 100 - 4*16) / 16 = 4.75 prefill blocks, 10 + 3 decode blocks.
        assertEquals(17.75, selector.cost(inputs, 0), 1e-12);
        // B: 100 / 16 = 6.25 prefill blocks, 1 + 6 decode blocks.
        assertEquals(13.25, selector.cost(inputs, 1), 1e-12);
        // C: (100 - 96) / 16 = 0.25 prefill blocks, 21 + 0 decode blocks.
        assertEquals(21.25, selector.cost(inputs, 2), 1e-12);
        assertEquals(1, selector.select(inputs));
        assertEquals(22.5, selector(2.0, 0, 1).cost(inputs, 0), 1e-12);
    }

    @Test
    void shouldFollowTheOverlapWeight() {
        inputs.reset(160, 10, null, null);
        inputs.add(A, 10, 0).load(0, 12);
        inputs.add(B, 0, 10).load(0, 0);

        // Weight 1: A = 0 + 12, B = 10 + 10 → A. Weight 0: A = 12, B = 10 → B (pure load balancing).
        assertEquals(0, selector(1.0, 0, 1).select(inputs));
        assertEquals(1, selector(0.0, 0, 1).select(inputs));
    }

    @Test
    void shouldBreakTiesByWorkerIdThenRank() {
        inputs.reset(32, 2, null, null);
        // Candidates come in worker order; the cheaper ones tie behind a dearer first candidate.
        inputs.add(new WorkerWithDpRank(2, 0), 0, 3);
        inputs.add(new WorkerWithDpRank(3, 0), 0, 2);
        inputs.add(new WorkerWithDpRank(3, 1), 0, 2);
        inputs.add(new WorkerWithDpRank(5, 0), 0, 2);

        DefaultWorkerSelector selector = selector(1.0, 0, 1);
        for (int i = 0; i < 5; i++) {
            assertEquals(1, selector.select(inputs));
        }
    }

    @Test
    void shouldSampleRoughlyBySoftmaxOfNormalisedCosts() {
        inputs.reset(0, 0, null, null);
        inputs.add(A, 0, 0);
        inputs.add(B, 0, 5);
        inputs.add(C, 0, 10);
        DefaultWorkerSelector selector = selector(1.0, 1.0, 42);
        int[] picks = new int[3];
        int draws = 100_000;
        for (int i = 0; i < draws; i++) {
            picks[selector.select(inputs)]++;
        }

        // Costs 0, 5, 10 normalise to 0, 0.5, 1: weights 1, e^-0.5, e^-1.
        double sum = 1 + Math.exp(-0.5) + Math.exp(-1);
        assertEquals(1 / sum, picks[0] / (double) draws, 0.01);
        assertEquals(Math.exp(-0.5) / sum, picks[1] / (double) draws, 0.01);
        assertEquals(Math.exp(-1) / sum, picks[2] / (double) draws, 0.01);
    }

    @Test
    void shouldSampleEachOfARunOfEqualCostsAsOftenAsTheOthers() {
        // Three neighbours at cost 0, one at 5, two more at 0 apart from the first three, and one at 10: each of the
        // five at 0 weighs 1, and candidates of one run share their run's draws evenly.
        inputs.reset(0, 0, null, null);
        for (int i = 0; i < 3; i++) {
            inputs.add(WorkerWithDpRank.of(10 + i), 0, 0);
        }
        inputs.add(B, 0, 5);
        inputs.add(WorkerWithDpRank.of(20), 0, 0);
        inputs.add(WorkerWithDpRank.of(21), 0, 0);
        inputs.add(C, 0, 10);
        DefaultWorkerSelector selector = selector(1.0, 1.0, 7);
        int[] picks = new int[7];
        int draws = 200_000;
        for (int i = 0; i < draws; i++) {
            picks[selector.select(inputs)]++;
        }

        double sum = 5 + Math.exp(-0.5) + Math.exp(-1);
        for (int cheap : new int[] {0, 1, 2, 4, 5}) {
            assertEquals(1 / sum, picks[cheap] / (double) draws, 0.01, "candidate " + cheap);
        }
        assertEquals(Math.exp(-0.5) / sum, picks[3] / (double) draws, 0.01);
        assertEquals(Math.exp(-1) / sum, picks[6] / (double) draws, 0.01);
    }

    @Test
    void shouldSampleBySoftmaxWhenMostTriesAreRejected() {
        // One candidate at cost 0 and forty at 10, temperature 0.5: weights 1 and e^-2, so a uniform try is kept with
        // probability (1 + 40 e^-2) / 41 = 0.16 and a quarter of the draws fall back to the sum over every weight;
        // both paths together still pick by the softmax.
        inputs.reset(0, 0, null, null);
        inputs.add(A, 0, 0);
        for (int i = 0; i < 40; i++) {
            inputs.add(WorkerWithDpRank.of(100 + i), 0, 10);
        }
        DefaultWorkerSelector selector = selector(1.0, 0.5, 11);
        int cheap = 0;
        int draws = 100_000;
        for (int i = 0; i < draws; i++) {
            cheap += selector.select(inputs) == 0 ? 1 : 0;
        }

        assertEquals(1 / (1 + 40 * Math.exp(-2)), cheap / (double) draws, 0.01);
    }

    @Test
    void shouldSampleUniformlyWhenAllCostsAreEqualAndRepeatWithTheSameSeed() {
        inputs.reset(16, 1, null, null);
        inputs.add(A, 0, 1);
        inputs.add(B, 0, 1);
        DefaultWorkerSelector first = selector(1.0, 0.5, 9);
        DefaultWorkerSelector second = selector(1.0, 0.5, 9);
        int onA = 0;
        for (int i = 0; i < 10_000; i++) {
            int pick = first.select(inputs);
            assertEquals(pick, second.select(inputs));
            onA += pick == 0 ? 1 : 0;
        }
        assertEquals(0.5, onA / 10_000.0, 0.03);
    }

    @Test
    void shouldHonourTheSoftTargetWhenItIsACandidate() {
        threeWorkers(C);

        assertEquals(2, selector(1.0, 0, 1).select(inputs), "C is the most expensive but the classifier's target");
        assertEquals(2, selector(1.0, 2.0, 1).select(inputs));
    }

    @Test
    void shouldIgnoreASoftTargetThatIsNotACandidate() {
        threeWorkers(WorkerWithDpRank.of(99));

        assertEquals(1, selector(1.0, 0, 1).select(inputs));
        threeWorkers(new WorkerWithDpRank(3, 1));
        assertEquals(1, selector(1.0, 0, 1).select(inputs), "another rank of a candidate worker is not a candidate");
    }

    @Test
    void shouldTakeThePinnedWorkerOrNone() {
        inputs.reset(100, 6, A, C);
        inputs.add(A, 6, 0);
        inputs.add(C, 0, 6).load(10_000, 500);
        assertEquals(1, selector(1.0, 0, 1).select(inputs), "a pin overrides the soft target and the cost");

        inputs.reset(100, 6, null, C);
        inputs.add(A, 6, 0);
        assertEquals(WorkerSelector.NONE, selector(1.0, 0, 1).select(inputs));
    }

    @Test
    void shouldChooseNoneWithoutCandidates() {
        inputs.reset(100, 6, A, null);

        assertEquals(WorkerSelector.NONE, selector(1.0, 0, 1).select(inputs));
        assertEquals(WorkerSelector.NONE, selector(1.0, 1.0, 1).select(inputs));
    }
}
