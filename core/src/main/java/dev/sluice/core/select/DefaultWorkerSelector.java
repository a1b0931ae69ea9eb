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
 * <p>Owned by the scheduler thread; not thread-safe. Allocates nothing once its buffers have grown to the largest
 * candidate count.
 */
public final class DefaultWorkerSelector implements WorkerSelector {
    /** The reserved type name of the built-in selector. */
    public static final String TYPE = RouterPluginRegistry.DEFAULT_TYPE;

    /** Slots in the weight memo: a power of two. */
    private static final int WEIGHT_BITS = 6;
    /** Tries of {@link #acceptOne} before sampling over every weight. */
    private static final int REJECTION_TRIES = 8;
    /** Beyond the rounding of the series bounds in {@link #kept}, where {@code exp(-x)} may still lie. */
    private static final double SERIES_SLACK = 1e-9;
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
    /** Where each run of equal neighbouring costs starts, {@code [0 .. runs)}, in the last sampled selection. */
    private int[] runStarts = new int[16];

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

    /** As {@link #cost(SelectionInputs, int)} from the router's own arrays, {@code candidate} in range. */
    private double cost(SelectionCandidates candidates, int candidate) {
        return cost(candidates.inputTokens(), candidates.overlapBlocksArray()[candidate],
            candidates.activePrefillTokensArray()[candidate], candidates.activeDecodeBlocksArray()[candidate],
            candidates.newBlocksArray()[candidate]);
    }

    /** Whether this selector draws among candidates (temperature above 0), where it needs every cost. */
    boolean samples() {
        return temperature != 0.0;
    }

    /** The cost from a candidate's figures; {@link SelectionCandidates#add} calls it as it fills (see there). */
    double cost(long inputTokens, int overlapBlocks, long activePrefillTokens, long activeDecodeBlocks, int newBlocks) {
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
        // The cheapest one alone needs no cost kept nor the dearest (temperature 0, or a single candidate).
        boolean sampling = samples() && count > 1;
        SelectionCandidates costed;
        double min;
        double max;
        if (inputs instanceof SelectionCandidates candidates) {
            // The router's own inputs: their adds cost each candidate as it comes (from the second selection over
            // them on), so no pass over every candidate is left here.
            if (!candidates.costedBy(this)) {
                candidates.costBy(this);
            }
            if (!sampling) {
                return candidates.cheapest();
            }
            costed = candidates;
            min = candidates.minCost();
            max = candidates.maxCost();
        } else {
            if (!sampling) {
                return cheapest(inputs, count);
            }
            ensureCosts(count);
            costed = null;
            min = Double.POSITIVE_INFINITY;
            max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < count; i++) {
                double cost = cost(inputs, i);
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
        }
        if (max == min) {
            // All equal: the softmax is uniform.
            return random.nextInt(count);
        }
        double scale = (max - min) * temperature;
        int accepted = acceptOne(costed, count, min, scale);
        if (accepted >= 0) {
            return accepted;
        }
        if (costed != null) {
            // The candidates kept no costs (a try costs its own candidate): every one is needed now.
            ensureCosts(count);
            for (int i = 0; i < count; i++) {
                costs[i] = cost(costed, i);
            }
        }
        return sample(count, min, scale);
    }

    private void ensureCosts(int count) {
        if (costs.length < count) {
            costs = new double[Math.max(count, costs.length * 2)];
        }
    }

    /** The first of the cheapest candidates (in worker order), read through the interface. */
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

    /**
     * Draws a candidate by rejection: a uniform candidate, kept with probability its weight
     * {@code exp(-(c - min) / scale)} (at most 1, the cheapest's), which picks with the softmax's probabilities exactly
     * and computes an exp per try instead of per candidate (costs of a loaded fleet mostly differ, so a memo of
     * weights would not spare them). A try succeeds with the candidates' mean weight, at least {@code exp(-1 / T)}:
     * 0.37 at temperature 1. After {@value #REJECTION_TRIES} failed tries, -1: the caller samples over every weight,
     * and as each try's outcome, accepted, is distributed exactly as the softmax, so is the mixture.
     */
    private int acceptOne(SelectionCandidates costed, int count, double min, double scale) {
        for (int tries = 0; tries < REJECTION_TRIES; tries++) {
            int candidate = random.nextInt(count);
            // The router's candidates keep the range only: the tried one is costed here, to the same bits.
            double cost = costed != null ? cost(costed, candidate) : costs[candidate];
            double keep = random.nextDouble();
            if (cost == min || kept(keep, (cost - min) / scale)) {
                return candidate;
            }
        }
        return -1;
    }

    /**
     * Whether {@code keep < Math.exp(-x)}, {@code x >= 0}, mostly without the exp: the series of {@code exp(-x)} cut
     * after its cubic term is below it and after its quartic term above it, close enough near the weights of a try
     * (x up to 1 / T) that a draw outside the gap between them is settled. {@link #SERIES_SLACK} is far more than the
     * rounding of either bound or of {@code Math.exp} (1 ulp), so a draw the bounds settle gets the exp's answer.
     */
    static boolean kept(double keep, double x) {
        double below = 1.0 - x * (1.0 - x * (0.5 - x * (1.0 / 6.0)));
        if (keep < below - SERIES_SLACK) {
            return true;
        }
        double above = below + x * x * x * x * (1.0 / 24.0);
        if (keep >= above + SERIES_SLACK) {
            return false;
        }
        return keep < Math.exp(-x);
    }

    /**
     * Draws a candidate with weight {@code exp(-(c - min) / scale)}, over every weight. Neighbours in
     * worker order often cost the same (ranks with the same load and overlap), so the costs are taken as runs of equal
     * neighbours: a run of {@code k} candidates of weight {@code w} weighs {@code k * w}, the draw finds its run, and
     * within it falls on candidate {@code floor(draw / w)}, uniformly as the equal weights ask. A fleet of ranks alike
     * then costs one step per run, not per candidate.
     */
    private int sample(int count, double min, double scale) {
        if (runStarts.length < count) {
            runStarts = new int[Math.max(count, runStarts.length * 2)];
        }
        int[] starts = runStarts;
        int runs = 0;
        long previousBits = NO_COST;
        for (int i = 0; i < count; i++) {
            long bits = Double.doubleToRawLongBits(costs[i]);
            if (bits != previousBits) {
                starts[runs++] = i;
                previousBits = bits;
            }
        }
        // Equal costs have equal weights: each distinct cost's exp is computed once, and a run's weight, first kept in
        // its first candidate's place, is its length times that. Keyed by the cost's bits, so a hit is the very double
        // the exp would give.
        long[] keys = weightKeys;
        double[] weights = weightValues;
        Arrays.fill(keys, NO_COST);
        double sum = 0;
        for (int r = 0; r < runs; r++) {
            int start = starts[r];
            int end = r + 1 < runs ? starts[r + 1] : count;
            double cost = costs[start];
            long bits = Double.doubleToRawLongBits(cost);
            int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - WEIGHT_BITS));
            double weight;
            if (keys[slot] == bits) {
                weight = weights[slot];
            } else {
                weight = Math.exp(-(cost - min) / scale);
                keys[slot] = bits;
                weights[slot] = weight;
            }
            costs[start] = weight;
            sum += (end - start) * weight;
        }
        double draw = random.nextDouble() * sum;
        for (int r = 0; r < runs; r++) {
            int start = starts[r];
            int end = r + 1 < runs ? starts[r + 1] : count;
            double weight = costs[start];
            double runWeight = (end - start) * weight;
            if (draw < runWeight) {
                // The run's candidates weigh the same: the draw's place in the run names one; rounding may put it a
                // sliver past the last, which owns it.
                return Math.min(end - 1, start + (int) (draw / weight));
            }
            draw -= runWeight;
        }
        // Rounding left a sliver past the last run's weight; the last candidate owns it.
        return count - 1;
    }
}
