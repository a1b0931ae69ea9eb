package dev.sluice.transport.simulation;

import java.util.SplittableRandom;

/**
 * The random draws workloads are made of, from one seeded generator so a workload is a function of its seed. Token
 * ids of workload text are drawn from {@code [2000, 60000)}, disjoint from the simulated engine's output ids
 * ({@code [1000, 2000)}). Not thread-safe.
 */
public final class WorkloadRandom {
    private final SplittableRandom random;

    public WorkloadRandom(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** {@code n} random token ids. */
    public int[] tokens(int n) {
        int[] tokens = new int[n];
        for (int i = 0; i < n; i++) {
            tokens[i] = 2000 + random.nextInt(58_000);
        }
        return tokens;
    }

    /** Uniform in {@code [mean/2, 3*mean/2]}, at least 1. */
    public int around(int mean) {
        return Math.max(1, mean / 2 + random.nextInt(mean + 1));
    }

    /** Uniform in {@code [min, max]}. */
    public int between(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    /** Exponentially distributed with this mean (Poisson arrivals, think and tool times). */
    public long exponentialNs(long meanNs) {
        return (long) (-Math.log(1.0 - random.nextDouble()) * meanNs);
    }

    /** Uniform in {@code [0, 1)}. */
    public double fraction() {
        return random.nextDouble();
    }

    /** An index in {@code [0, n)}. */
    public int index(int n) {
        return random.nextInt(n);
    }
}
