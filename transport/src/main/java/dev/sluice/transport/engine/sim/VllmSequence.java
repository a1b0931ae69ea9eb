package dev.sluice.transport.engine.sim;

import dev.sluice.core.kv.BlockHasher;

/**
 * One request's tokens and KV blocks as vLLM v1 keeps them: {@code numTokens} known tokens (prompt, then sampled
 * output), of which {@code numComputed} have KV; blocks are held only for computed or scheduled tokens, taken chunk by
 * chunk and token by token ({@link #allocate}). Complete blocks are known by their chained hash (or a unique id with
 * prefix caching off), at most one trailing block is partial. After a preemption ({@link #reset}) the tokens stay and
 * only the KV is dropped, so a resumed request re-prefills prompt plus output, hitting its surviving blocks. Owned by
 * the rank's engine thread; not thread-safe.
 */
final class VllmSequence {
    private final int blockSize;
    private final BlockHasher hasher;
    private final boolean prefixCaching;
    private final ActiveSequence.UniqueIds uniqueIds;
    private final int promptLength;
    private final int maxOutputTokens;
    private final int[] tokens;
    private final long[] blockIds;
    private final long[] localHashes;
    private int identified;
    private int numTokens;
    private int numComputed;
    private int fullHeld;
    private int partialSlot = KvManager.NONE;
    private boolean prefilled;

    VllmSequence(int[] prompt, int maxOutputTokens, BlockHasher hasher, boolean prefixCaching,
                 ActiveSequence.UniqueIds uniqueIds) {
        this.blockSize = hasher.blockSize();
        this.hasher = hasher;
        this.prefixCaching = prefixCaching;
        this.uniqueIds = uniqueIds;
        this.promptLength = prompt.length;
        this.maxOutputTokens = maxOutputTokens;
        this.tokens = new int[prompt.length + maxOutputTokens];
        System.arraycopy(prompt, 0, tokens, 0, prompt.length);
        this.numTokens = prompt.length;
        int maxBlocks = tokens.length / blockSize;
        this.blockIds = new long[maxBlocks];
        this.localHashes = new long[maxBlocks];
    }

    /**
     * Leading complete blocks resident in the cache, at most {@code (numTokens - 1) / blockSize} so that at least one
     * token is computed (vLLM's {@code get_computed_blocks}). Only for a request holding nothing.
     */
    int hitBlocks(KvManager kv) {
        int max = (numTokens - 1) / blockSize;
        identify(max);
        int hits = 0;
        while (hits < max && kv.isResident(blockIds[hits])) {
            hits++;
        }
        return hits;
    }

    /** Of the first {@code hits} blocks, those inactive (evictable): taking them shrinks the free pool. */
    int evictableAmong(KvManager kv, int hits) {
        int n = 0;
        for (int i = 0; i < hits; i++) {
            if (kv.refCount(blockIds[i]) == 0) {
                n++;
            }
        }
        return n;
    }

    /** Takes the first {@code hits} resident blocks as computed (a cache hit). */
    void acquireHits(KvManager kv, int hits) {
        if (fullHeld != 0 || partialSlot != KvManager.NONE || !kv.useFull(blockIds, localHashes, tokens, 0, hits)) {
            throw new IllegalStateException("cache hit on " + hits + " blocks failed");
        }
        fullHeld = hits;
        numComputed = hits * blockSize;
    }

    /** New blocks needed for KV of the first {@code target} tokens beyond those held. */
    int blocksNeeded(int target) {
        return (int) ActiveSequence.blocksFor(target, blockSize) - heldBlocks();
    }

    /**
     * Holds blocks for the first {@code target} tokens (all known): promotes the partial block once full, takes the
     * complete blocks after it and a partial one for a remainder. The caller checked that {@link #blocksNeeded} are
     * free or evictable, so this cannot fail.
     */
    void allocate(KvManager kv, int target) {
        if (target > numTokens) {
            throw new IllegalStateException("KV for " + target + " tokens of " + numTokens);
        }
        int full = target / blockSize;
        identify(full);
        if (partialSlot != KvManager.NONE && full > fullHeld) {
            int block = fullHeld;
            kv.promote(partialSlot, blockIds[block], localHashes[block], tokens, block, block > 0,
                block > 0 ? blockIds[block - 1] : 0L);
            partialSlot = KvManager.NONE;
            fullHeld++;
        }
        if (full > fullHeld) {
            if (!kv.useFull(blockIds, localHashes, tokens, fullHeld, full)) {
                throw new IllegalStateException("no KV block for " + (full - fullHeld) + " blocks");
            }
            fullHeld = full;
        }
        if (target % blockSize != 0 && partialSlot == KvManager.NONE) {
            partialSlot = kv.usePartial();
            if (partialSlot == KvManager.NONE) {
                throw new IllegalStateException("no KV block for a partial block");
            }
        }
    }

    /** {@code n} more tokens have KV (scheduled in this pass). */
    void computed(int n) {
        numComputed += n;
        if (numComputed == numTokens) {
            prefilled = true;
        }
    }

    /** Appends a sampled token. */
    void append(int token) {
        tokens[numTokens++] = token;
    }

    /** Drops every block, leaf first (vLLM frees in reverse, so the tail is evicted first). */
    void free(KvManager kv) {
        if (partialSlot != KvManager.NONE) {
            kv.destroyPartial(partialSlot);
            partialSlot = KvManager.NONE;
        }
        for (int i = fullHeld - 1; i >= 0; i--) {
            kv.deref(blockIds[i]);
        }
        fullHeld = 0;
    }

    /** Preemption: frees the KV; the tokens stay, to be re-prefilled on resume. */
    void reset(KvManager kv) {
        free(kv);
        numComputed = 0;
        prefilled = false;
    }

    private int heldBlocks() {
        return fullHeld + (partialSlot == KvManager.NONE ? 0 : 1);
    }

    private void identify(int blocks) {
        for (int i = identified; i < blocks; i++) {
            long local = hasher.localHash(tokens, i);
            localHashes[i] = local;
            blockIds[i] = !prefixCaching ? uniqueIds.next()
                : i == 0 ? local : BlockHasher.sequenceHash(blockIds[i - 1], local);
        }
        identified = Math.max(identified, blocks);
    }

    int numTokens() {
        return numTokens;
    }

    int numComputed() {
        return numComputed;
    }

    /** Whether the prompt (and, after a preemption, the output so far) has KV: the request is decoding. */
    boolean prefilled() {
        return prefilled;
    }

    int generated() {
        return numTokens - promptLength;
    }

    boolean isComplete() {
        return generated() >= maxOutputTokens;
    }
}
