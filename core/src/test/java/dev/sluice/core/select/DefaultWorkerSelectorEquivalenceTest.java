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
 * candidate, as the selector first did; sampled by rejection, then over runs of equal neighbouring costs, as it
 * samples now), over many random candidate sets with few and with many distinct costs: the same choice for the same
 * inputs and the same random draws, every time.
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

    /**
     * Up to 200 candidates; half the sets draw from a few loads and overlaps (many equal costs), half from many; in
     * half of each, a candidate mostly repeats its neighbour (runs of equal costs, as ranks alike give).
     */
    private void fill(SplittableRandom random, int blockSize) {
        int blocks = random.nextInt(1, 64);
        candidates.reset((long) blocks * blockSize - random.nextInt(blockSize), blocks, null, null);
        int count = random.nextInt(1, 200);
        int spread = random.nextBoolean() ? 3 : 1_000;
        boolean runs = random.nextBoolean();
        int overlap = 0;
        int fresh = 0;
        long prefill = 0;
        long decode = 0;
        for (int i = 0; i < count; i++) {
            if (i == 0 || !runs || random.nextInt(4) == 0) {
                overlap = random.nextInt(Math.min(spread, blocks + 1));
                fresh = random.nextInt(Math.min(spread, blocks + 1));
                prefill = random.nextInt(spread) * 16L;
                decode = random.nextInt(spread);
            }
            candidates.add(new WorkerWithDpRank(i, 0), overlap, fresh).load(prefill, decode);
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
            double[] weights = new double[count];
            for (int i = 0; i < count; i++) {
                weights[i] = Math.exp(-(costs[i] - min) / ((max - min) * temperature));
            }
            // First up to eight tries of a uniform candidate, kept with probability its weight.
            for (int tries = 0; tries < 8; tries++) {
                int candidate = random.nextInt(count);
                if (random.nextDouble() < weights[candidate]) {
                    return candidate;
                }
            }
            // Neighbours of equal cost form a run, weighing its length times their weight (so the sum is the same
            // double as the selector's); the draw finds its run, then its candidate by its place in the run.
            double sum = 0;
            for (int start = 0, end; start < count; start = end) {
                end = runEnd(costs, start, count);
                sum += (end - start) * weights[start];
            }
            double draw = random.nextDouble() * sum;
            for (int start = 0, end; start < count; start = end) {
                end = runEnd(costs, start, count);
                double runWeight = (end - start) * weights[start];
                if (draw < runWeight) {
                    return Math.min(end - 1, start + (int) Math.floor(draw / weights[start]));
                }
                draw -= runWeight;
            }
            return count - 1;
        }

        private static int runEnd(double[] costs, int start, int count) {
            int end = start + 1;
            while (end < count && costs[end] == costs[start]) {
                end++;
            }
            return end;
        }
    }
}
