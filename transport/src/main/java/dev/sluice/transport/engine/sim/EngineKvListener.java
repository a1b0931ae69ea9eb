package dev.sluice.transport.engine.sim;

/**
 * A simulated engine's own account of its KV cache, as a real engine publishes it over the wire: each run of newly
 * stored complete blocks with the engine's block hashes and the tokens they hold, and each eviction. Unlike the
 * router's {@link dev.sluice.core.kv.KvEventSink} it carries tokens, not the router's hashes, so that a subscriber
 * can re-hash them as it must for a real engine. Called on the worker's driver thread, in the order the cache
 * changed; implementations must not block it.
 */
public interface EngineKvListener {
    /** Listens to nothing. */
    EngineKvListener NONE = new EngineKvListener() {
        @Override
        public void onStored(int dpRank, long[] blockHashes, boolean hasParent, long parentHash, int[] tokenIds) {
        }

        @Override
        public void onRemoved(int dpRank, long[] blockHashes) {
        }
    };

    /**
     * Blocks newly stored, chained from {@code parentHash} when {@code hasParent}; {@code tokenIds} holds the
     * tokens of all of them, a block size each. The arrays are the listener's to keep.
     */
    void onStored(int dpRank, long[] blockHashes, boolean hasParent, long parentHash, int[] tokenIds);

    /** Blocks evicted or destroyed. The array is the listener's to keep. */
    void onRemoved(int dpRank, long[] blockHashes);
}
