package dev.sluice.transport.engine.kv;

import java.util.List;
import java.util.Objects;

/**
 * One published batch ({@code KVEventBatch}): the engine's timestamp, its events in order, and the data-parallel
 * rank that published it when the batch says so. Immutable.
 *
 * @param timestamp seconds since the epoch, as the engine's clock read it.
 * @param events    the events, in the order the engine applied them.
 * @param dpRank    {@code data_parallel_rank} (vLLM) or {@code attn_dp_rank} (SGLang), or {@link #NO_RANK}.
 */
public record KvWireBatch(double timestamp, List<KvWireEvent> events, int dpRank) {
    /** A batch that names no rank: it is the rank of the endpoint it came from. */
    public static final int NO_RANK = -1;

    public KvWireBatch {
        events = List.copyOf(Objects.requireNonNull(events, "events"));
        if (dpRank < NO_RANK) {
            throw new IllegalArgumentException("dpRank must be >= 0 or NO_RANK, was " + dpRank);
        }
    }
}
