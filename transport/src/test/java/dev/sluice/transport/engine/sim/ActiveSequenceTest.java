package dev.sluice.transport.engine.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.transport.testing.Prompts;
import dev.sluice.transport.testing.RecordingKvSink;
import org.junit.jupiter.api.Test;

/** Port of the mocker's sequence.rs test_active_sequence_push, plus the prefix-caching-off identities. */
class ActiveSequenceTest {
    private static final BlockHasher HASHER = new BlockHasher(16);

    private final RecordingKvSink sink = new RecordingKvSink();
    private final KvManager kv = new KvManager(10, true, new KvEventPublisher(WorkerWithDpRank.of(0), sink));
    private long uniqueIds = 1;

    @Test
    void shouldUsePromoteAndUseAgainAsTokensArePushed() {
        ActiveSequence sequence = sequence(Prompts.range(0, 15), true);
        assertTrue(sequence.allocate(kv));
        assertEquals(1, kv.activeBlocks(), "creation uses one partial block");
        assertEquals(0, sequence.fullBlocks());

        assertTrue(sequence.generate(15, kv));
        assertEquals(1, sequence.fullBlocks(), "token 16 completes the block: promoted");
        assertFalse(sequence.hasPartialBlock());
        assertEquals(1, kv.activeBlocks());
        long blockHash = HASHER.localHash(Prompts.range(0, 16), 0);
        KvEvent.Stored stored = assertInstanceOf(KvEvent.Stored.class, sink.events().get(0));
        assertFalse(stored.hasParent());
        assertArrayEquals(new long[] {blockHash}, stored.sequenceHashes());

        assertTrue(sequence.generate(16, kv));
        assertTrue(sequence.hasPartialBlock(), "token 17 needs a new partial block");
        assertEquals(2, kv.activeBlocks());
        assertEquals(17, sequence.length());
        assertEquals(2, sequence.totalBlocks());

        ActiveSequence direct = sequence(Prompts.range(0, 17), true);
        assertEquals(sequence.blockId(0), direct.blockId(0), "same tokens, same block hash");
    }

    @Test
    void shouldGiveEveryBlockItsOwnIdentityWithoutPrefixCaching() {
        ActiveSequence first = sequence(Prompts.range(0, 32), false);
        ActiveSequence second = sequence(Prompts.range(0, 32), false);
        assertNotEquals(first.blockId(0), second.blockId(0));
        assertTrue(first.allocate(kv));
        assertEquals(32, second.newTokens(kv), "nothing is shared");
    }

    @Test
    void shouldRestartFromThePromptWhenReset() {
        ActiveSequence sequence = sequence(Prompts.range(0, 20), true);
        assertTrue(sequence.allocate(kv));
        for (int t = 0; t < 13; t++) {
            assertTrue(sequence.generate(100 + t, kv));
        }
        assertEquals(3, kv.activeBlocks());
        sequence.reset(kv);
        assertEquals(20, sequence.length());
        assertEquals(0, sequence.generated());
        assertEquals(0, kv.activeBlocks());
        assertEquals(4, sequence.newTokens(kv), "the prompt's complete block is still cached");
    }

    private ActiveSequence sequence(int[] prompt, boolean caching) {
        return new ActiveSequence(prompt, 100, HASHER, caching, () -> uniqueIds++);
    }
}
