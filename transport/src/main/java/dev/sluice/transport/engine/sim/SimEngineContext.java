package dev.sluice.transport.engine.sim;

import java.util.Objects;

/**
 * The simulated engine's options, with the names and defaults of Dynamo's mocker ({@code MockEngineArgs}).
 * A mutable configuration object with fluent setters; an engine copies it on construction (via {@link #validate}),
 * so changing it afterwards has no effect. Not thread-safe.
 */
public final class SimEngineContext {
    private long numGpuBlocks = 16_384;
    private int blockSize = 64;
    private int maxNumSeqs = 256;
    private int maxNumBatchedTokens = 8192;
    private boolean enablePrefixCaching = true;
    private boolean enableChunkedPrefill = true;
    private double watermark = 0.01;
    private double speedupRatio = 1.0;
    private int dpSize = 1;
    private long seed = 0;
    private SchedulerMode scheduler = SchedulerMode.MOCKER;
    private CostModel costModel = CostModel.MOCKER;

    /** The mocker's defaults; set what differs fluently. */
    public SimEngineContext() {
    }

    /** KV capacity per data-parallel rank in blocks ({@code --num-gpu-blocks-override}, default 16384). */
    public SimEngineContext numGpuBlocks(long blocks) {
        this.numGpuBlocks = blocks;
        return this;
    }

    public long numGpuBlocks() {
        return numGpuBlocks;
    }

    /** Tokens per KV block ({@code --block-size}, default 64). */
    public SimEngineContext blockSize(int size) {
        this.blockSize = size;
        return this;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Most running sequences per rank ({@code --max-num-seqs}, default 256). */
    public SimEngineContext maxNumSeqs(int seqs) {
        this.maxNumSeqs = seqs;
        return this;
    }

    public int maxNumSeqs() {
        return maxNumSeqs;
    }

    /** Token budget per forward pass ({@code --max-num-batched-tokens}, default 8192). */
    public SimEngineContext maxNumBatchedTokens(int tokens) {
        this.maxNumBatchedTokens = tokens;
        return this;
    }

    public int maxNumBatchedTokens() {
        return maxNumBatchedTokens;
    }

    /** Reuse complete blocks by hash and publish KV events ({@code --enable-prefix-caching}, default true). */
    public SimEngineContext enablePrefixCaching(boolean enable) {
        this.enablePrefixCaching = enable;
        return this;
    }

    public boolean enablePrefixCaching() {
        return enablePrefixCaching;
    }

    /** Split prompts across passes ({@code --enable-chunked-prefill}, default true). */
    public SimEngineContext enableChunkedPrefill(boolean enable) {
        this.enableChunkedPrefill = enable;
        return this;
    }

    public boolean enableChunkedPrefill() {
        return enableChunkedPrefill;
    }

    /** Fraction of KV blocks kept free at admission ({@code watermark}, default 0.01). */
    public SimEngineContext watermark(double fraction) {
        this.watermark = fraction;
        return this;
    }

    public double watermark() {
        return watermark;
    }

    /** Divides all simulated compute time ({@code --speedup-ratio}, default 1.0, must be > 0). */
    public SimEngineContext speedupRatio(double ratio) {
        this.speedupRatio = ratio;
        return this;
    }

    public double speedupRatio() {
        return speedupRatio;
    }

    /** Data-parallel ranks per worker, each an independent engine core ({@code --dp-size}, default 1). */
    public SimEngineContext dpSize(int size) {
        this.dpSize = size;
        return this;
    }

    public int dpSize() {
        return dpSize;
    }

    /** Seed of the output-token generator; each worker and rank derives its own stream (default 0). */
    public SimEngineContext seed(long value) {
        this.seed = value;
        return this;
    }

    public long seed() {
        return seed;
    }

    /**
     * The scheduler and KV manager a rank models (default {@link SchedulerMode#MOCKER}, Dynamo's mocker, for parity
     * with Dynamo's simulations; {@link SchedulerMode#VLLM_V1} for vLLM v1's admission and preemption).
     */
    public SimEngineContext scheduler(SchedulerMode mode) {
        this.scheduler = Objects.requireNonNull(mode, "scheduler");
        return this;
    }

    public SchedulerMode scheduler() {
        return scheduler;
    }

    /** How a forward pass is timed (default {@link CostModel#MOCKER}, the mocker's polynomial). */
    public SimEngineContext costModel(CostModel model) {
        this.costModel = Objects.requireNonNull(model, "costModel");
        return this;
    }

    public CostModel costModel() {
        return costModel;
    }

    /**
     * A validated copy.
     *
     * @throws IllegalArgumentException naming the first option out of range.
     */
    public SimEngineContext validate() {
        check(numGpuBlocks >= 1 && numGpuBlocks <= Integer.MAX_VALUE / 4, "num_gpu_blocks", numGpuBlocks);
        check(blockSize >= 1, "block_size", blockSize);
        check(maxNumSeqs >= 1, "max_num_seqs", maxNumSeqs);
        check(maxNumBatchedTokens >= 1, "max_num_batched_tokens", maxNumBatchedTokens);
        check(watermark >= 0 && watermark < 1, "watermark", watermark);
        check(speedupRatio > 0 && Double.isFinite(speedupRatio), "speedup_ratio", speedupRatio);
        check(dpSize >= 1 && dpSize <= 1024, "dp_size", dpSize);
        return new SimEngineContext().numGpuBlocks(numGpuBlocks).blockSize(blockSize).maxNumSeqs(maxNumSeqs)
            .maxNumBatchedTokens(maxNumBatchedTokens).enablePrefixCaching(enablePrefixCaching)
            .enableChunkedPrefill(enableChunkedPrefill).watermark(watermark).speedupRatio(speedupRatio)
            .dpSize(dpSize).seed(seed).scheduler(scheduler).costModel(costModel);
    }

    private static void check(boolean valid, String name, Object value) {
        if (!valid) {
            throw new IllegalArgumentException(name + " is out of range: " + value);
        }
    }
}
