package dev.sluice.transport.engine.telemetry;

import java.util.List;
import java.util.Objects;

/**
 * What one scrape of an engine's {@code /metrics} says about the served model, per data-parallel rank of the
 * engine (vLLM's {@code engine} label, SGLang's {@code dp_rank}; rank 0 when the engine labels none), ranks in
 * ascending order. Immutable.
 *
 * @param dialect the engine's metric names: {@code vllm} or {@code sglang}.
 * @param ranks   at least one.
 */
public record EngineSample(String dialect, List<Rank> ranks) {
    public EngineSample {
        Objects.requireNonNull(dialect, "dialect");
        ranks = List.copyOf(ranks);
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("an engine sample has at least one rank");
        }
    }

    /**
     * One engine rank's figures.
     *
     * @param rank              the engine's rank number.
     * @param running           requests running (prefilling or decoding).
     * @param waiting           requests queued in the engine, not yet running.
     * @param kvUsage           the fraction of the KV cache in use, 0..1, or {@code NaN} if the engine did not say.
     * @param kvCapacityTokens  the KV cache's size in tokens ({@code num_gpu_blocks × block_size} for vLLM,
     *                          {@code max_total_num_tokens} for SGLang), or -1 if the engine did not say.
     * @param blockSize         tokens per KV block as the engine publishes it (vLLM's {@code block_size}), or 0
     *                          when it publishes none (SGLang counts its cache in tokens).
     */
    public record Rank(int rank, int running, int waiting, double kvUsage, long kvCapacityTokens, int blockSize) {
        /** Whether the engine published the rank's KV cache size. */
        public boolean knowsCapacity() {
            return kvCapacityTokens > 0;
        }
    }
}
