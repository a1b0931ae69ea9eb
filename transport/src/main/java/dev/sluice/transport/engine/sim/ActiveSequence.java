package dev.sluice.transport.engine.sim;

import dev.sluice.core.kv.BlockHasher;

/**
 * One request's token sequence and the KV blocks it holds (the mocker's {@code ActiveSequence}): complete blocks
 * identified by chained block hashes ({@link BlockHasher}), or by unique ids when prefix caching is off, and at most
 * one trailing partial block. Generating a token may need a new partial block (the only allocation that can fail
 * during decode) and completing a block promotes the partial one. Owned by the rank's engine thread.
 */
final class ActiveSequence {
    private final int[] prompt;
    private final int[] tokens;
    private final int maxOutputTokens;
    private final BlockHasher hasher;
    private final boolean prefixCaching;
    private final UniqueIds uniqueIds;
    private final long[] blockIds;
    private final long[] localHashes;
    private int length;
    private int generated;
    private int fullBlocks;
    private int partialSlot = KvManager.NONE;
    private boolean allocated;

    /** Source of block ids that are never shared, for prefix caching off. */
    @FunctionalInterface
    interface UniqueIds {
        long next();
    }

    ActiveSequence(int[] prompt, int maxOutputTokens, BlockHasher hasher, boolean prefixCaching,
                   UniqueIds uniqueIds) {
        this.prompt = prompt;
        this.maxOutputTokens = maxOutputTokens;
        this.hasher = hasher;
        this.prefixCaching = prefixCaching;
        this.uniqueIds = uniqueIds;
        int maxLength = prompt.length + maxOutputTokens;
        this.tokens = new int[maxLength];
        int maxBlocks = maxLength / hasher.blockSize();
        this.blockIds = new long[maxBlocks];
        this.localHashes = new long[maxBlocks];
        System.arraycopy(prompt, 0, tokens, 0, prompt.length);
        this.length = prompt.length;
        this.fullBlocks = hasher.completeBlocks(prompt.length);
        for (int i = 0; i < fullBlocks; i++) {
            localHashes[i] = hasher.localHash(prompt, i);
        }
        assignPromptIds();
    }

    /** Blocks a sequence of {@code tokenCount} tokens occupies. */
    static long blocksFor(long tokenCount, int blockSize) {
        return (tokenCount + blockSize - 1) / blockSize;
    }

    /** Takes the blocks of the current tokens (creation Use); false, holding nothing, if the cache is full. */
    boolean allocate(KvManager kv) {
        if (!kv.useFull(blockIds, localHashes, tokens, fullBlocks)) {
            return false;
        }
        if (length % hasher.blockSize() != 0) {
            partialSlot = kv.usePartial();
            if (partialSlot == KvManager.NONE) {
                derefFull(kv);
                return false;
            }
        }
        allocated = true;
        return true;
    }

    /**
     * Appends a generated token, taking a new partial block first if needed and promoting it when it fills up.
     * Returns false, changing nothing, when that partial block cannot be had.
     */
    boolean generate(int token, KvManager kv) {
        if (partialSlot == KvManager.NONE) {
            partialSlot = kv.usePartial();
            if (partialSlot == KvManager.NONE) {
                return false;
            }
        }
        tokens[length++] = token;
        generated++;
        if (length % hasher.blockSize() == 0) {
            int block = fullBlocks;
            long local = hasher.localHash(tokens, block);
            long parent = block == 0 ? 0L : blockIds[block - 1];
            long id = !prefixCaching ? uniqueIds.next()
                : block == 0 ? local : BlockHasher.sequenceHash(parent, local);
            localHashes[block] = local;
            blockIds[block] = id;
            fullBlocks++;
            kv.promote(partialSlot, id, local, tokens, block, block > 0, parent);
            partialSlot = KvManager.NONE;
        }
        return true;
    }

    /** Releases every block: Destroy of the partial block, then Deref of complete blocks from the last one. */
    void free(KvManager kv) {
        if (!allocated) {
            return;
        }
        if (partialSlot != KvManager.NONE) {
            kv.destroyPartial(partialSlot);
            partialSlot = KvManager.NONE;
        }
        derefFull(kv);
        allocated = false;
    }

    /** Preemption: frees the blocks and starts over from the prompt; generated tokens are discarded. */
    void reset(KvManager kv) {
        free(kv);
        length = prompt.length;
        generated = 0;
        fullBlocks = hasher.completeBlocks(prompt.length);
        if (!prefixCaching) {
            assignPromptIds();
        }
    }

    /** Prompt tokens that must be computed: tokens minus those in complete blocks already resident. */
    int newTokens(KvManager kv) {
        int overlap = 0;
        for (int i = 0; i < fullBlocks; i++) {
            if (kv.isResident(blockIds[i])) {
                overlap++;
            }
        }
        return length - overlap * hasher.blockSize();
    }

    private void derefFull(KvManager kv) {
        // Leaf first: the LRU list then evicts a chain from its tail, so a resident block's parent stays
        // resident, which the router's prefix tree assumes.
        for (int i = fullBlocks - 1; i >= 0; i--) {
            kv.deref(blockIds[i]);
        }
    }

    private void assignPromptIds() {
        for (int i = 0; i < fullBlocks; i++) {
            // Fresh ids after a reset too: with prefix caching off a block must never be found again.
            blockIds[i] = !prefixCaching ? uniqueIds.next()
                : i == 0 ? localHashes[0] : BlockHasher.sequenceHash(blockIds[i - 1], localHashes[i]);
        }
    }

    int length() {
        return length;
    }

    int promptLength() {
        return prompt.length;
    }

    int generated() {
        return generated;
    }

    int maxOutputTokens() {
        return maxOutputTokens;
    }

    boolean isComplete() {
        return generated >= maxOutputTokens;
    }

    int totalBlocks() {
        return (int) blocksFor(length, hasher.blockSize());
    }

    int fullBlocks() {
        return fullBlocks;
    }

    boolean hasPartialBlock() {
        return partialSlot != KvManager.NONE;
    }

    long blockId(int block) {
        return blockIds[block];
    }
}
