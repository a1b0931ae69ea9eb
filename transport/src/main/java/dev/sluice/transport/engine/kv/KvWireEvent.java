package dev.sluice.transport.engine.kv;

import java.util.Arrays;
import java.util.Objects;

/**
 * One KV-cache event as an engine publishes it (vLLM's {@code vllm/distributed/kv_events.py}, SGLang's
 * {@code sglang/srt/disaggregation/kv_events.py}). Block hashes are the engine's own and opaque: an int hash is
 * kept as its 64 bits (signed or unsigned on the wire), a bytes hash is folded to 64 bits ({@link KvBatchDecoder}).
 * Immutable values; the arrays are not copied, so neither side may change them after handing them over.
 */
public sealed interface KvWireEvent {
    /** {@code groupIdx} when the event names no KV-cache group. */
    int NO_GROUP = -1;

    /**
     * {@code BlockStored}: complete blocks just cached, in order, chained from {@code parentHash}.
     *
     * @param blockHashes the engine's hash of each block.
     * @param hasParent   false when the first block starts a sequence ({@code parent_block_hash} nil).
     * @param tokenIds    the tokens of all the blocks, {@code blockSize} each.
     * @param medium      where the blocks live ({@code GPU}, an offloading tier), or null (the GPU).
     * @param extraKeys   true when a block's hash had more than its tokens in it: a LoRA adapter, multimodal
     *                    inputs, a cache salt ({@code lora_id}, {@code lora_name}, {@code extra_keys}).
     * @param groupIdx    the KV-cache group, or {@link #NO_GROUP}.
     * @param specKind    the group's kind ({@code full_attention}, {@code sliding_window}, ...), or null.
     */
    record BlockStored(long[] blockHashes, boolean hasParent, long parentHash, int[] tokenIds, int blockSize,
                       String medium, boolean extraKeys, int groupIdx, String specKind) implements KvWireEvent {
        public BlockStored {
            Objects.requireNonNull(blockHashes, "blockHashes");
            Objects.requireNonNull(tokenIds, "tokenIds");
        }

        /** Plain GPU blocks of one sequence, as the mock engine publishes them. */
        public static BlockStored of(long[] blockHashes, boolean hasParent, long parentHash, int[] tokenIds,
                                     int blockSize) {
            return new BlockStored(blockHashes, hasParent, parentHash, tokenIds, blockSize, "GPU", false, NO_GROUP,
                null);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BlockStored o && Arrays.equals(blockHashes, o.blockHashes)
                && hasParent == o.hasParent && parentHash == o.parentHash && Arrays.equals(tokenIds, o.tokenIds)
                && blockSize == o.blockSize && Objects.equals(medium, o.medium) && extraKeys == o.extraKeys
                && groupIdx == o.groupIdx && Objects.equals(specKind, o.specKind);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(blockHashes) * 31 + Arrays.hashCode(tokenIds);
        }

        @Override
        public String toString() {
            return "BlockStored[hashes=" + Arrays.toString(blockHashes) + ", parent=" + (hasParent ? parentHash
                : "none") + ", tokens=" + tokenIds.length + ", blockSize=" + blockSize + ", medium=" + medium
                + ", extraKeys=" + extraKeys + ", group=" + groupIdx + ", kind=" + specKind + "]";
        }
    }

    /** {@code BlockRemoved}: blocks evicted, by the engine's hash. */
    record BlockRemoved(long[] blockHashes, String medium, int groupIdx) implements KvWireEvent {
        public BlockRemoved {
            Objects.requireNonNull(blockHashes, "blockHashes");
        }

        /** GPU blocks, as the mock engine publishes them. */
        public static BlockRemoved of(long... blockHashes) {
            return new BlockRemoved(blockHashes, "GPU", NO_GROUP);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BlockRemoved o && Arrays.equals(blockHashes, o.blockHashes)
                && Objects.equals(medium, o.medium) && groupIdx == o.groupIdx;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(blockHashes);
        }

        @Override
        public String toString() {
            return "BlockRemoved[hashes=" + Arrays.toString(blockHashes) + ", medium=" + medium + ", group="
                + groupIdx + "]";
        }
    }

    /** {@code AllBlocksCleared}: the engine dropped its whole cache. */
    record AllBlocksCleared() implements KvWireEvent {
    }
}
