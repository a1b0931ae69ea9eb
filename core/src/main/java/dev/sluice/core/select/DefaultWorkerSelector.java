package dev.sluice.core.select;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.SelectionInputs;
import dev.sluice.core.spi.RouterPluginRegistry;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.spi.WorkerSelectorFactory;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The built-in selector (type {@code default}), Dynamo's classic KV-router cost (dynamo-mocker.md §7.4). Per
 * candidate, lower is better:
 * <pre>
 *   potential_prefill_tokens = active_prefill_tokens + max(0, isl - overlap_blocks * block_size)
 *   prefill_blocks           = potential_prefill_tokens / block_size      (floating point)
 *   decode_blocks            = active_decode_blocks + new_blocks
 *   cost                     = overlap_score_weight * prefill_blocks + decode_blocks
 * </pre>
 * A hard pin selects the pinned candidate (or none). A soft target that is a candidate is chosen outright.
 * Otherwise, at {@code router_temperature} 0 the cheapest candidate wins and ties go to the first of them, which
 * is the lower worker id, then the lower rank, as candidates come in worker order ({@link SelectionInputs}):
 * deterministic, where Dynamo breaks ties uniformly at random, so that placements are reproducible.
 * Above 0 a candidate is drawn with {@code p ∝ exp(-(c - c_min) / ((c_max - c_min) * T))} from the context's random
 * generator (uniform when all costs are equal).
 *
 * <p>Owned by the scheduler thread; not thread-safe. Allocates nothing once its cost buffer has grown to the largest
 * candidate count.
 */
public final class DefaultWorkerSelector implements WorkerSelector {
    /** The reserved type name of the built-in selector. */
    public static final String TYPE = RouterPluginRegistry.DEFAULT_TYPE;

    /** Slots in the weight memo: a power of two. */
    private static final int WEIGHT_BITS = 6;
    /** Candidates per partial sum of the weights: a power of two. */
    private static final int SUM_BLOCK_BITS = 4;
    private static final int SUM_BLOCK = 1 << SUM_BLOCK_BITS;
    /** No cost has these bits: costs are never NaN (finite weight, finite loads). */
    private static final long NO_COST = -1L;

    private final int blockSize;
    /** {@code 1.0 / blockSize} when that is exact (a power of two), else 0. */
    private final double blockReciprocal;
    private final double overlapScoreWeight;
    private final double temperature;
    private final RandomGenerator random;
    private final long[] weightKeys = new long[1 << WEIGHT_BITS];
    private final double[] weightValues = new double[1 << WEIGHT_BITS];
    private double[] costs = new double[16];
    private double[] blockSums = new double[4];

    public DefaultWorkerSelector(int blockSize, DefaultSelectorSettings settings, RandomGenerator random) {
        if (blockSize <= 0) {
            throw new IllegalArgumentException("blockSize must be > 0, was " + blockSize);
        }
        this.blockSize = blockSize;
        this.blockReciprocal = Integer.bitCount(blockSize) == 1 ? 1.0 / blockSize : 0.0;
        this.overlapScoreWeight = settings.overlapScoreWeight();
        this.temperature = settings.routerTemperature();
        this.random = Objects.requireNonNull(random, "random");
    }

    /** A factory building default selectors with {@code settings} and each router's block size and random source. */
    public static WorkerSelectorFactory factory(DefaultSelectorSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return context -> new DefaultWorkerSelector(context.blockSize(), settings, context.random());
    }

    /** The cost of placing the request on {@code candidate}; lower is better. */
    public double cost(SelectionInputs inputs, int candidate) {
        return cost(inputs.inputTokens(), inputs.overlapBlocks(candidate), inputs.activePrefillTokens(candidate),
            inputs.activeDecodeBlocks(candidate), inputs.newBlocks(candidate));
    }

    private double cost(long inputTokens, int overlapBlocks, long activePrefillTokens, long activeDecodeBlocks,
                        int newBlocks) {
        long uncachedTokens = Math.max(0L, inputTokens - (long) overlapBlocks * blockSize);
        long prefillTokens = activePrefillTokens + uncachedTokens;
        // Dividing by a power of two and multiplying by its reciprocal give the same double, and the product is
        // cheaper.
        double prefillBlocks = blockReciprocal != 0.0 ? prefillTokens * blockReciprocal
            : (double) prefillTokens / blockSize;
        double decodeBlocks = activeDecodeBlocks + newBlocks;
        return overlapScoreWeight * prefillBlocks + decodeBlocks;
    }

    @Override
    public int select(SelectionInputs inputs) {
        int count = inputs.candidateCount();
        if (count == 0) {
            return NONE;
        }
        if (inputs.pinnedWorker() != null) {
            return inputs.indexOf(inputs.pinnedWorker());
        }
        int target = inputs.indexOf(inputs.softTarget());
        if (target >= 0) {
            return target;
        }
        if (costs.length < count) {
            costs = new double[Math.max(count, costs.length * 2)];
        }
        // The cheapest one alone needs no cost kept nor the dearest (temperature 0, or a single candidate).
        boolean sampling = temperature != 0.0 && count > 1;
        if (!sampling) {
            return inputs instanceof SelectionCandidates candidates ? cheapest(candidates, count)
                : cheapest(inputs, count);
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        if (inputs instanceof SelectionCandidates candidates) {
            // The router's own inputs: every candidate's cost in one pass over its arrays.
            long inputTokens = candidates.inputTokens();
            int[] overlap = candidates.overlapBlocksArray();
            long[] prefill = candidates.activePrefillTokensArray();
            long[] decode = candidates.activeDecodeBlocksArray();
            int[] fresh = candidates.newBlocksArray();
            for (int i = 0; i < count; i++) {
                double cost = cost(inputTokens, overlap[i], prefill[i], decode[i], fresh[i]);
                costs[i] = cost;
                // Comparisons, not Math.min/max: costs are never NaN nor -0.0 (weight >= 0), where alone they differ,
                // and a predictable branch does not chain each candidate's latency onto the next.
                if (cost < min) {
                    min = cost;
                }
                if (cost > max) {
                    max = cost;
                }
            }
        } else {
            for (int i = 0; i < count; i++) {
                double cost = cost(inputs, i);
                costs[i] = cost;
                if (cost < min) {
                    min = cost;
                }
                if (cost > max) {
                    max = cost;
                }
            }
        }
        return sample(count, min, max);
    }

    /** The first of the cheapest candidates (in worker order), from the router's own arrays. */
    private int cheapest(SelectionCandidates candidates, int count) {
        long inputTokens = candidates.inputTokens();
        int[] overlap = candidates.overlapBlocksArray();
        long[] prefill = candidates.activePrefillTokensArray();
        long[] decode = candidates.activeDecodeBlocksArray();
        int[] fresh = candidates.newBlocksArray();
        double min = Double.POSITIVE_INFINITY;
        int best = 0;
        for (int i = 0; i < count; i++) {
            double cost = cost(inputTokens, overlap[i], prefill[i], decode[i], fresh[i]);
            // Strictly cheaper only: of equal costs the first candidate (in worker order) stays best.
            if (cost < min) {
                min = cost;
                best = i;
            }
        }
        return best;
    }

    /** As {@link #cheapest(SelectionCandidates, int)} through the interface. */
    private int cheapest(SelectionInputs inputs, int count) {
        double min = Double.POSITIVE_INFINITY;
        int best = 0;
        for (int i = 0; i < count; i++) {
            double cost = cost(inputs, i);
            if (cost < min) {
                min = cost;
                best = i;
            }
        }
        return best;
    }

    private int sample(int count, double min, double max) {
        if (max == min) {
            // All equal: the softmax is uniform.
            return random.nextInt(count);
        }
        double scale = (max - min) * temperature;
        int blocks = (count + SUM_BLOCK - 1) >>> SUM_BLOCK_BITS;
        if (blockSums.length < blocks) {
            blockSums = new double[Math.max(blocks, blockSums.length * 2)];
        }
        // Equal costs have equal weights: each distinct cost's exp is computed once (a fleet of ranks with the same
        // load and overlap has few). Keyed by the cost's bits, so a hit is the very double the exp would give.
        long[] keys = weightKeys;
        double[] weights = weightValues;
        Arrays.fill(keys, NO_COST);
        double sum = 0;
        long previousBits = NO_COST;
        double previousWeight = 0;
        // Weights are summed in blocks of SUM_BLOCK candidates, and the draw finds its block before its candidate:
        // each dependent chain of additions is a block long, not the whole fleet.
        for (int block = 0; block < blocks; block++) {
            int end = Math.min(count, (block + 1) << SUM_BLOCK_BITS);
            double blockSum = 0;
            for (int i = block << SUM_BLOCK_BITS; i < end; i++) {
                long bits = Double.doubleToRawLongBits(costs[i]);
                double weight;
                if (bits == previousBits) {
                    // Neighbours in worker order mostly cost the same: the memo is not even hashed.
                    weight = previousWeight;
                } else {
                    int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - WEIGHT_BITS));
                    if (keys[slot] == bits) {
                        weight = weights[slot];
                    } else {
                        weight = Math.exp(-(costs[i] - min) / scale);
                        keys[slot] = bits;
                        weights[slot] = weight;
                    }
                    previousBits = bits;
                    previousWeight = weight;
                }
                costs[i] = weight;
                blockSum += weight;
            }
            blockSums[block] = blockSum;
            sum += blockSum;
        }
        double draw = random.nextDouble() * sum;
        int block = 0;
        while (block < blocks - 1 && draw >= blockSums[block]) {
            draw -= blockSums[block];
            block++;
        }
        int end = Math.min(count, (block + 1) << SUM_BLOCK_BITS);
        for (int i = block << SUM_BLOCK_BITS; i < end; i++) {
            draw -= costs[i];
            if (draw < 0) {
                return i;
            }
        }
        // Rounding left a sliver past the block's last weight; its last candidate owns it.
        return end - 1;
    }
}
