package dev.sluice.core.kv;

import net.openhft.hashing.LongHashFunction;

/**
 * Block hashes as Dynamo computes them, so engines and router agree on block identity:
 * <ul>
 *   <li>local hash of a complete block: XXH3-64, seed 1337, over its {@code blockSize} token ids as little-endian
 *   u32;</li>
 *   <li>sequence hash (the block's identity): block 0's equals its local hash; block {@code i} is XXH3-64, seed
 *   1337, over the little-endian u64 pair (sequence hash of block {@code i-1}, local hash of block {@code i}).</li>
 * </ul>
 * The trailing partial block is not hashed. Stateless and thread-safe.
 */
public final class BlockHasher {
    /** Dynamo's seed. */
    public static final long SEED = 1337L;

    private static final LongHashFunction XXH3 = LongHashFunction.xx3(SEED);

    private final int blockSize;

    public BlockHasher(int blockSize) {
        if (blockSize <= 0) {
            throw new IllegalArgumentException("blockSize must be > 0, was " + blockSize);
        }
        this.blockSize = blockSize;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Complete blocks in {@code tokenCount} tokens. */
    public int completeBlocks(int tokenCount) {
        return tokenCount / blockSize;
    }

    /** The local hash of block {@code block} of {@code tokens} (which must be complete). */
    public long localHash(int[] tokens, int block) {
        int from = block * blockSize;
        if (block < 0 || from + blockSize > tokens.length) {
            throw new IndexOutOfBoundsException("block " + block + " is not complete in " + tokens.length
                + " tokens of block size " + blockSize);
        }
        // xx3 over an int[] reads the ints in little-endian order, as Dynamo's u32::to_le_bytes does.
        return XXH3.hashInts(tokens, from, blockSize);
    }

    /** The local hashes of every complete block. */
    public long[] localHashes(int[] tokens) {
        long[] hashes = new long[completeBlocks(tokens.length)];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = localHash(tokens, i);
        }
        return hashes;
    }

    /** The sequence hash of a block given its parent's sequence hash and its own local hash. */
    public static long sequenceHash(long parentSequenceHash, long localHash) {
        return XXH3.hashLongs(new long[] {parentSequenceHash, localHash});
    }

    /** The sequence hashes (block identities) of a chain of local hashes. */
    public static long[] sequenceHashes(long[] localHashes) {
        long[] sequence = new long[localHashes.length];
        long[] pair = new long[2];
        for (int i = 0; i < localHashes.length; i++) {
            if (i == 0) {
                sequence[0] = localHashes[0];
            } else {
                pair[0] = sequence[i - 1];
                pair[1] = localHashes[i];
                sequence[i] = XXH3.hashLongs(pair);
            }
        }
        return sequence;
    }
}
