package dev.sluice.transport.cli;

import dev.sluice.transport.engine.sim.SimEngineContext;
import picocli.CommandLine.Option;

/** The simulated engine's options, in the mocker's words; shared by {@code mock-engine} and {@code serve}. */
final class MockerOptions {
    @Option(names = "--num-gpu-blocks-override", defaultValue = "16384", paramLabel = "BLOCKS",
        description = "KV cache capacity per data-parallel rank, in blocks (default: ${DEFAULT-VALUE}).")
    long numGpuBlocks;

    @Option(names = "--block-size", defaultValue = "64", paramLabel = "TOKENS",
        description = "Tokens per KV block (default: ${DEFAULT-VALUE}).")
    int blockSize;

    @Option(names = "--max-num-seqs", defaultValue = "256", paramLabel = "N",
        description = "Most running sequences per rank (default: ${DEFAULT-VALUE}).")
    int maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", defaultValue = "8192", paramLabel = "TOKENS",
        description = "Token budget of one forward pass (default: ${DEFAULT-VALUE}).")
    int maxNumBatchedTokens;

    @Option(names = "--speedup-ratio", defaultValue = "1.0", paramLabel = "RATIO",
        description = "Divides all simulated compute time; must be > 0 (default: ${DEFAULT-VALUE}).")
    double speedupRatio;

    @Option(names = "--enable-prefix-caching", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Reuse complete KV blocks by hash (default: on; --no-enable-prefix-caching turns it off).")
    boolean enablePrefixCaching;

    @Option(names = "--enable-chunked-prefill", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Split long prompts across forward passes (default: on).")
    boolean enableChunkedPrefill;

    @Option(names = {"--dp-size", "--data-parallel-size"}, defaultValue = "1", paramLabel = "N",
        description = "Simulated data-parallel ranks per worker (default: ${DEFAULT-VALUE}).")
    int dpSize;

    @Option(names = "--seed", defaultValue = "0", description = "Seed of the generated token ids "
        + "(default: ${DEFAULT-VALUE}).")
    long seed;

    /** The engine settings; throws {@link IllegalArgumentException} naming the first option out of range. */
    SimEngineContext engine() {
        check(numGpuBlocks >= 1 && numGpuBlocks <= Integer.MAX_VALUE / 4, "--num-gpu-blocks-override must be 1.."
            + Integer.MAX_VALUE / 4 + " blocks, was " + numGpuBlocks);
        check(blockSize >= 1, "--block-size must be >= 1 token, was " + blockSize);
        check(maxNumSeqs >= 1, "--max-num-seqs must be >= 1, was " + maxNumSeqs);
        check(maxNumBatchedTokens >= 1, "--max-num-batched-tokens must be >= 1 token, was " + maxNumBatchedTokens);
        check(speedupRatio > 0 && Double.isFinite(speedupRatio), "--speedup-ratio must be a finite number > 0, was "
            + speedupRatio);
        check(dpSize >= 1 && dpSize <= 1024, "--dp-size must be 1..1024, was " + dpSize);
        SimEngineContext engine = new SimEngineContext().numGpuBlocks(numGpuBlocks).blockSize(blockSize)
            .maxNumSeqs(maxNumSeqs).maxNumBatchedTokens(maxNumBatchedTokens).speedupRatio(speedupRatio)
            .enablePrefixCaching(enablePrefixCaching).enableChunkedPrefill(enableChunkedPrefill).dpSize(dpSize)
            .seed(seed);
        engine.validate();
        return engine;
    }

    private static void check(boolean valid, String message) {
        if (!valid) {
            throw new IllegalArgumentException(message);
        }
    }
}
