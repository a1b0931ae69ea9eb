package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.SelectionInputs;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The built-in selector against the plain formula it implements (one division and one {@code Math.exp} per
 * candidate, as the selector first did), over many random candidate sets with few and with many distinct costs: the
 * same choice for the same inputs and the same random draws, every time.
 */
class DefaultWorkerSelectorEquivalenceTest {
    private final SelectionCandidates candidates = new SelectionCandidates();

    @Test
    void shouldChooseAsThePlainFormulaForTheSameDraws() {
        SplittableRandom random = new SplittableRandom(2026);
        int sampled = 0;
        for (int blockSize : new int[] {16, 10, 1, 64}) {
            for (double temperature : new double[] {0.0, 0.001, 0.3, 1.0, 4.0}) {
                for (double weight : new double[] {0.0, 1.0, 1.5, random.nextDouble() * 3}) {
                    DefaultSelectorSettings settings = new DefaultSelectorSettings(weight, temperature);
                    long seed = random.nextLong();
                    DefaultWorkerSelector selector = new DefaultWorkerSelector(blockSize, settings,
                        new SplittableRandom(seed));
                    PlainFormula plain = new PlainFormula(blockSize, weight, temperature, new SplittableRandom(seed));
                    for (int round = 0; round < 200; round++) {
                        fill(random, blockSize);
                        // Several draws on the same candidates: the weights of one selection must not leak into
                        // the next.
                        for (int draw = 0; draw < 3; draw++) {
                            assertEquals(plain.select(candidates), selector.select(candidates),
                                () -> "block size " + blockSize + ", temperature " + temperature + ", weight "
                                    + weight);
                        }
                        sampled += temperature > 0 ? 3 : 0;
                    }
                }
            }
        }
        assertEquals(4 * 4 * 4 * 200 * 3, sampled);
    }

    /** Up to 200 candidates; half the sets draw from a few loads and overlaps (many equal costs), half from many. */
    private void fill(SplittableRandom random, int blockSize) {
        int blocks = random.nextInt(1, 64);
        candidates.reset((long) blocks * blockSize - random.nextInt(blockSize), blocks, null, null);
        int count = random.nextInt(1, 200);
        int spread = random.nextBoolean() ? 3 : 1_000;
        for (int i = 0; i < count; i++) {
            int overlap = random.nextInt(Math.min(spread, blocks + 1));
            candidates.add(new WorkerWithDpRank(i, 0), overlap, random.nextInt(Math.min(spread, blocks + 1)))
                .load(random.nextInt(spread) * 16L, random.nextInt(spread));
        }
    }

    /** Dynamo's cost and softmax written out, one division and one exp per candidate. */
    private static final class PlainFormula {
        private final int blockSize;
        private final double weight;
        private final double temperature;
        private final RandomGenerator random;

        PlainFormula(int blockSize, double weight, double temperature, RandomGenerator random) {
            this.blockSize = blockSize;
            this.weight = weight;
            this.temperature = temperature;
            this.random = random;
        }

        int select(SelectionInputs inputs) {
            int count = inputs.candidateCount();
            double[] costs = new double[count];
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            int best = 0;
            for (int i = 0; i < count; i++) {
                long uncached = Math.max(0L, inputs.inputTokens() - (long) inputs.overlapBlocks(i) * blockSize);
                double prefillBlocks = (double) (inputs.activePrefillTokens(i) + uncached) / blockSize;
                costs[i] = weight * prefillBlocks + (inputs.activeDecodeBlocks(i) + inputs.newBlocks(i));
                if (costs[i] < min) {
                    min = costs[i];
                    best = i;
                }
                max = Math.max(max, costs[i]);
            }
            if (temperature == 0.0 || count == 1) {
                return best;
            }
            if (max == min) {
                return random.nextInt(count);
            }
            // Summed in blocks of 16 candidates, as the selector sums them (so the sum is the same double); the draw
            // finds its block, then its candidate.
            int blocks = (count + 15) / 16;
            double[] blockSums = new double[blocks];
            double sum = 0;
            for (int i = 0; i < count; i++) {
                costs[i] = Math.exp(-(costs[i] - min) / ((max - min) * temperature));
                blockSums[i / 16] += costs[i];
            }
            for (double blockSum : blockSums) {
                sum += blockSum;
            }
            double draw = random.nextDouble() * sum;
            int block = 0;
            while (block < blocks - 1 && draw >= blockSums[block]) {
                draw -= blockSums[block];
                block++;
            }
            int end = Math.min(count, 16 * (block + 1));
            for (int i = 16 * block; i < end; i++) {
                draw -= costs[i];
                if (draw < 0) {
                    return i;
                }
            }
            return end - 1;
        }
    }
}
