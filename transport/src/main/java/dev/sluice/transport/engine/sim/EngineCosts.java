package dev.sluice.transport.engine.sim;

/**
 * What an engine's forward passes cost, for reports that explain a run: the time to prefill a context from scratch
 * in chunks of {@code max_num_batched_tokens} under the context's {@link CostModel}, and one decode step. Stateless.
 */
public final class EngineCosts {
    private EngineCosts() {
    }

    /** Milliseconds (before {@code speedup_ratio}) to prefill {@code tokens} uncached tokens, chunk by chunk. */
    public static double prefillMs(SimEngineContext ctx, long tokens) {
        double ms = 0.0;
        long chunk = ctx.enableChunkedPrefill() ? ctx.maxNumBatchedTokens() : tokens;
        for (long done = 0; done < tokens; done += chunk) {
            long t = Math.min(chunk, tokens - done);
            ms += ctx.costModel() == CostModel.ATTENTION
                ? PerfModel.prefillPassMs() + PerfModel.attentionChunkMs(t, done) : PerfModel.prefillMs(t);
        }
        return ms;
    }

    /** One decode step (before {@code speedup_ratio}) at KV utilisation {@code fraction} of the cache. */
    public static double decodeStepMs(double fraction) {
        return PerfModel.decodeMs(1, (long) (fraction * 1_000_000), 1_000_000);
    }
}
