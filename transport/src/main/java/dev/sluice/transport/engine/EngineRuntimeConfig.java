package dev.sluice.transport.engine;

/**
 * An engine's fixed capacity, per data-parallel rank, as Dynamo's model card {@code runtime_config} carries it.
 *
 * @param totalKvBlocks       KV cache capacity of one rank, in blocks.
 * @param blockSize           tokens per KV block (also the router's block size for hashing).
 * @param maxNumBatchedTokens token budget of one forward pass.
 * @param maxNumSeqs          most sequences running at once on one rank.
 * @param dataParallelSize    data-parallel ranks of the worker, at least 1.
 */
public record EngineRuntimeConfig(long totalKvBlocks, int blockSize, long maxNumBatchedTokens, int maxNumSeqs,
                                  int dataParallelSize) {
    public EngineRuntimeConfig {
        if (totalKvBlocks < 1 || blockSize < 1 || maxNumBatchedTokens < 1 || maxNumSeqs < 1
            || dataParallelSize < 1) {
            throw new IllegalArgumentException("every runtime config value must be >= 1: totalKvBlocks "
                + totalKvBlocks + ", blockSize " + blockSize + ", maxNumBatchedTokens " + maxNumBatchedTokens
                + ", maxNumSeqs " + maxNumSeqs + ", dataParallelSize " + dataParallelSize);
        }
    }
}
