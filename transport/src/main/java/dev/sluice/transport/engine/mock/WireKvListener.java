package dev.sluice.transport.engine.mock;

import dev.sluice.transport.engine.kv.KvWireEvent;
import dev.sluice.transport.engine.kv.ZmqKvEventPublisher;
import dev.sluice.transport.engine.sim.EngineKvListener;

/**
 * The simulated worker's cache changes, in its own block hashes with the blocks' tokens, put on the wire as vLLM
 * events ({@code BlockStored} on the GPU, {@code BlockRemoved}) of their data-parallel rank. Called on the worker's
 * runner thread; the publisher only queues.
 */
final class WireKvListener implements EngineKvListener {
    private final ZmqKvEventPublisher publisher;
    private final int blockSize;

    WireKvListener(ZmqKvEventPublisher publisher, int blockSize) {
        this.publisher = publisher;
        this.blockSize = blockSize;
    }

    @Override
    public void onStored(int dpRank, long[] blockHashes, boolean hasParent, long parentHash, int[] tokenIds) {
        publisher.publish(dpRank, KvWireEvent.BlockStored.of(blockHashes, hasParent, parentHash, tokenIds,
            blockSize));
    }

    @Override
    public void onRemoved(int dpRank, long[] blockHashes) {
        publisher.publish(dpRank, KvWireEvent.BlockRemoved.of(blockHashes));
    }
}
