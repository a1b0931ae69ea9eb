package dev.sluice.core.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/** Block hashing matches Dynamo's definition: XXH3-64 seed 1337 over little-endian u32 tokens, chained. */
class BlockHasherTest {

    @Test
    void shouldBeXxh3() {
        // The XXH3-64 reference value of empty input with seed 0.
        assertEquals(0x2D06800538D394C2L, LongHashFunction.xx3().hashBytes(new byte[0]));
    }

    @Test
    void shouldHashTokensAsLittleEndianU32WithSeed1337() {
        int[] tokens = {0, 1, 2, 70_000};
        ByteBuffer bytes = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int token : tokens) {
            bytes.putInt(token);
        }
        long expected = LongHashFunction.xx3(1337).hashBytes(bytes.array());
        assertEquals(expected, new BlockHasher(4).localHash(tokens, 0));
    }

    @Test
    void shouldChainSequenceHashesOverTheLittleEndianPair() {
        BlockHasher hasher = new BlockHasher(2);
        long[] local = hasher.localHashes(new int[] {1, 2, 3, 4, 5});
        assertEquals(2, local.length);
        long[] sequence = BlockHasher.sequenceHashes(local);
        ByteBuffer pair = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(local[0]).putLong(local[1]);
        assertEquals(local[0], sequence[0]);
        assertEquals(LongHashFunction.xx3(1337).hashBytes(pair.array()), sequence[1]);
    }

    @Test
    void shouldGiveTheSameBlockDifferentIdentitiesAfterDifferentPrefixes() {
        BlockHasher hasher = new BlockHasher(2);
        long[] a = BlockHasher.sequenceHashes(hasher.localHashes(new int[] {1, 2, 9, 9}));
        long[] b = BlockHasher.sequenceHashes(hasher.localHashes(new int[] {3, 4, 9, 9}));
        assertEquals(hasher.localHashes(new int[] {1, 2, 9, 9})[1], hasher.localHashes(new int[] {3, 4, 9, 9})[1]);
        assertNotEquals(a[1], b[1]);
        assertArrayEquals(a, BlockHasher.sequenceHashes(hasher.localHashes(new int[] {1, 2, 9, 9, 7})));
    }
}
