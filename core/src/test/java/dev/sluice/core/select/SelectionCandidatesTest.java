package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.SelectionInputs;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reused candidate arrays, and the built-in selector's pass over them against the same selector reading the same
 * candidates through the plain {@link SelectionInputs} interface: the same costs to the bit and the same choices.
 */
class SelectionCandidatesTest {
    private static final WorkerWithDpRank A = WorkerWithDpRank.of(1);
    private static final WorkerWithDpRank B = WorkerWithDpRank.of(2);
    private static final WorkerWithDpRank C = WorkerWithDpRank.of(3);

    private final SelectionCandidates candidates = new SelectionCandidates();

    @Test
    void shouldOfferOnlyTheCandidatesAddedSinceTheLastReset() {
        candidates.reset(100, 6, null, null);
        candidates.add(A, 1, 5).load(7, 8).capacity(90, 2048);
        candidates.add(B, 2, 4);
        candidates.add(C, 3, 3);

        candidates.reset(50, 3, null, null);
        candidates.add(C, 0, 3);
        candidates.add(A, 2, 1);

        assertEquals(2, candidates.candidateCount());
        assertEquals(C, candidates.worker(0));
        assertEquals(A, candidates.worker(1));
        assertEquals(2, candidates.overlapBlocks(1));
        assertEquals(0, candidates.activePrefillTokens(1), "a re-added candidate starts without load");
        assertEquals(-1, candidates.totalKvBlocks(1), "and with unpublished capacity");
        assertEquals(-1, candidates.indexOf(B), "a worker of an earlier selection is no candidate");
        assertThrows(IndexOutOfBoundsException.class, () -> candidates.worker(2));
    }

    @Test
    void shouldStartEveryUnamendedCandidateWithoutLoadOrCapacityWhateverTheEarlierSelectionsSet() {
        // Amended selections of 5, then 2, then 40 candidates (past the first array size): each later candidate
        // not amended again reads the defaults, in the places the earlier ones amended and beyond them.
        int[] sizes = {5, 2, 40, 3};
        for (int round = 0; round < sizes.length; round++) {
            candidates.reset(100, 6, null, null);
            for (int i = 0; i < sizes[round]; i++) {
                candidates.add(WorkerWithDpRank.of(i), 1, 2);
                if (i % 2 == round % 2) {
                    candidates.load(7 + i, 8 + i).capacity(90 + i, 2048 + i);
                }
            }
            for (int i = 0; i < sizes[round]; i++) {
                boolean amended = i % 2 == round % 2;
                String where = "round " + round + ", candidate " + i;
                assertEquals(amended ? 7 + i : 0, candidates.activePrefillTokens(i), where);
                assertEquals(amended ? 8 + i : 0, candidates.activeDecodeBlocks(i), where);
                assertEquals(amended ? 90 + i : -1, candidates.totalKvBlocks(i), where);
                assertEquals(amended ? 2048 + i : -1, candidates.maxNumBatchedTokens(i), where);
            }
        }
    }

    @Test
    void shouldOfferEveryFigureOfAFullAddAndNoneOfItToALaterShortAdd() {
        candidates.reset(100, 6, null, null);
        candidates.add(A, 1, 5, 7, 8, 90, 2048);
        candidates.add(B, 2, 4, 3, 4, -1, 512);
        assertEquals(7, candidates.activePrefillTokens(0));
        assertEquals(8, candidates.activeDecodeBlocks(0));
        assertEquals(90, candidates.totalKvBlocks(0));
        assertEquals(2048, candidates.maxNumBatchedTokens(0));
        assertEquals(4, candidates.newBlocks(1));
        assertEquals(512, candidates.maxNumBatchedTokens(1));

        candidates.reset(100, 6, null, null);
        candidates.add(B, 0, 6);
        assertEquals(0, candidates.activePrefillTokens(0), "a short add's place holds no earlier load");
        assertEquals(0, candidates.activeDecodeBlocks(0));
        assertEquals(-1, candidates.totalKvBlocks(0), "nor an earlier capacity");
        assertEquals(-1, candidates.maxNumBatchedTokens(0));
    }

    @Test
    void shouldCostAndChooseAsThroughTheInterfaceOverRandomCandidates() {
        SplittableRandom random = new SplittableRandom(11);
        // 16 divides exactly by a product, 10 does not; weights and temperatures as configured.
        for (int blockSize : new int[] {16, 10, 1}) {
            for (double temperature : new double[] {0.0, 0.7}) {
                DefaultSelectorSettings settings = new DefaultSelectorSettings(1.0 + random.nextInt(3) / 2.0,
                    temperature);
                DefaultWorkerSelector direct = new DefaultWorkerSelector(blockSize, settings, new SplittableRandom(5));
                DefaultWorkerSelector viaInterface = new DefaultWorkerSelector(blockSize, settings,
                    new SplittableRandom(5));
                for (int round = 0; round < 300; round++) {
                    fill(random, blockSize);
                    SelectionInputs view = new InterfaceView(candidates);
                    for (int i = 0; i < candidates.candidateCount(); i++) {
                        long uncached = Math.max(0L, candidates.inputTokens()
                            - (long) candidates.overlapBlocks(i) * blockSize);
                        double expected = settings.overlapScoreWeight()
                            * ((double) (candidates.activePrefillTokens(i) + uncached) / blockSize)
                            + (candidates.activeDecodeBlocks(i) + candidates.newBlocks(i));
                        assertEquals(expected, direct.cost(candidates, i), "block size " + blockSize);
                    }
                    assertEquals(viaInterface.select(view), direct.select(candidates),
                        "block size " + blockSize + ", temperature " + temperature + ", round " + round);
                }
            }
        }
    }

    @Test
    void shouldChooseAsThroughTheInterfaceWhenFullAddsCostTheCandidatesAsTheyCome() {
        // Full adds cost the candidates for the selector that selected last; an amended load, a repeated selection
        // and a second selector taking turns on the same candidates must not change any choice.
        SplittableRandom random = new SplittableRandom(12);
        for (int blockSize : new int[] {16, 10}) {
            for (double temperature : new double[] {0.0, 0.7}) {
                DefaultSelectorSettings settings = new DefaultSelectorSettings(1.5, temperature);
                DefaultSelectorSettings others = new DefaultSelectorSettings(0.5, 0.7 - temperature);
                DefaultWorkerSelector direct = new DefaultWorkerSelector(blockSize, settings, new SplittableRandom(5));
                DefaultWorkerSelector viaInterface = new DefaultWorkerSelector(blockSize, settings,
                    new SplittableRandom(5));
                DefaultWorkerSelector other = new DefaultWorkerSelector(blockSize, others, new SplittableRandom(6));
                DefaultWorkerSelector otherViaInterface = new DefaultWorkerSelector(blockSize, others,
                    new SplittableRandom(6));
                for (int round = 0; round < 300; round++) {
                    int blocks = random.nextInt(40);
                    candidates.reset((long) blocks * blockSize + random.nextInt(blockSize), blocks, null, null);
                    int count = 1 + random.nextInt(140);
                    for (int w = 0; w < count; w++) {
                        candidates.add(WorkerWithDpRank.of(w), random.nextInt(blocks + 1), random.nextInt(4),
                            random.nextInt(3) * 100L, random.nextInt(3), -1, -1);
                    }
                    if (round % 7 == 0) {
                        candidates.load(random.nextInt(3) * 100L, random.nextInt(3));
                    }
                    SelectionInputs view = new InterfaceView(candidates);
                    String where = "block size " + blockSize + ", temperature " + temperature + ", round " + round;
                    assertEquals(viaInterface.select(view), direct.select(candidates), where);
                    assertEquals(viaInterface.select(view), direct.select(candidates), where + ", again");
                    if (round % 5 == 0) {
                        assertEquals(otherViaInterface.select(view), other.select(candidates), where + ", other");
                    }
                }
            }
        }
    }

    private void fill(SplittableRandom random, int blockSize) {
        int blocks = random.nextInt(40);
        candidates.reset((long) blocks * blockSize + random.nextInt(blockSize), blocks, null, null);
        int count = 1 + random.nextInt(140);
        for (int w = 0; w < count; w++) {
            // Few distinct values, so that equal costs (ties) are common.
            candidates.add(WorkerWithDpRank.of(w), random.nextInt(blocks + 1), random.nextInt(4))
                .load(random.nextInt(3) * 100L, random.nextInt(3));
        }
    }

    /** The candidates through the interface alone, as a plugin's own inputs would be read. */
    private record InterfaceView(SelectionInputs inputs) implements SelectionInputs {
        @Override
        public long inputTokens() {
            return inputs.inputTokens();
        }

        @Override
        public int requestBlocks() {
            return inputs.requestBlocks();
        }

        @Override
        public WorkerWithDpRank softTarget() {
            return inputs.softTarget();
        }

        @Override
        public WorkerWithDpRank pinnedWorker() {
            return inputs.pinnedWorker();
        }

        @Override
        public int candidateCount() {
            return inputs.candidateCount();
        }

        @Override
        public WorkerWithDpRank worker(int candidate) {
            return inputs.worker(candidate);
        }

        @Override
        public int overlapBlocks(int candidate) {
            return inputs.overlapBlocks(candidate);
        }

        @Override
        public long activePrefillTokens(int candidate) {
            return inputs.activePrefillTokens(candidate);
        }

        @Override
        public long activeDecodeBlocks(int candidate) {
            return inputs.activeDecodeBlocks(candidate);
        }

        @Override
        public int newBlocks(int candidate) {
            return inputs.newBlocks(candidate);
        }

        @Override
        public long totalKvBlocks(int candidate) {
            return inputs.totalKvBlocks(candidate);
        }

        @Override
        public long maxNumBatchedTokens(int candidate) {
            return inputs.maxNumBatchedTokens(candidate);
        }
    }
}
