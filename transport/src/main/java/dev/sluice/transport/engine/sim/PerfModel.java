package dev.sluice.transport.engine.sim;

/**
 * The mocker's polynomial timing (mid-2025 coefficients), in milliseconds before {@code speedup_ratio}.
 * Stateless.
 */
final class PerfModel {
    private PerfModel() {
    }

    /** Prefill of {@code newTokens} uncached tokens: {@code 4.209989e-7·T² + 1.518344e-2·T + 16.50142}, 0 for 0. */
    static double prefillMs(long newTokens) {
        if (newTokens <= 0) {
            return 0.0;
        }
        double t = newTokens;
        return 4.209989e-07 * t * t + 1.518344e-02 * t + 16.50142;
    }

    /**
     * One decode step of the whole batch at KV utilisation {@code p = active / total} blocks:
     * {@code −25.74·p² + 54.01·p + 5.74}, floored at 1 ms so token times never collapse; 0 for an empty batch.
     */
    static double decodeMs(int batchSize, long activeBlocks, long totalBlocks) {
        if (batchSize == 0) {
            return 0.0;
        }
        double p = totalBlocks == 0 ? 1.0 : Math.min(1.0, (double) activeBlocks / totalBlocks);
        return Math.max(1.0, -25.74 * p * p + 54.01 * p + 5.74);
    }

    /** A pass's wall duration: {@code (prefill + decode) / speedup}, at least 1 ns when any work was done. */
    static long passNs(double prefillMs, double decodeMs, double speedupRatio) {
        double ms = prefillMs + decodeMs;
        if (ms <= 0) {
            return 0;
        }
        return Math.max(1L, (long) (ms * 1_000_000.0 / speedupRatio));
    }

    /**
     * The prefill part of a pass under {@link CostModel#ATTENTION}: the fixed {@code 16.50142} ms once, then per
     * chunk {@code 1.518344e-2·T + 8.419978e-7·T·(C + T/2)} for {@code T} new tokens after {@code C} already in the
     * cache; at {@code C = 0} one chunk costs exactly {@link #prefillMs}.
     */
    static double attentionChunkMs(long newTokens, long contextTokens) {
        if (newTokens <= 0) {
            return 0.0;
        }
        double t = newTokens;
        return 1.518344e-02 * t + 2 * 4.209989e-07 * t * (contextTokens + t / 2.0);
    }

    /** The fixed cost of a pass that prefills anything under {@link CostModel#ATTENTION}. */
    static double prefillPassMs() {
        return 16.50142;
    }
}
