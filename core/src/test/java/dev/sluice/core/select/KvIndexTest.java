package dev.sluice.core.select;

import static dev.sluice.core.select.KvFixtures.W1;
import static dev.sluice.core.select.KvFixtures.W2;
import static dev.sluice.core.select.KvFixtures.W3;
import static dev.sluice.core.select.KvFixtures.local;
import static dev.sluice.core.select.KvFixtures.removed;
import static dev.sluice.core.select.KvFixtures.stored;
import static dev.sluice.core.select.KvFixtures.storedFrom;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.KvEvent;
import org.junit.jupiter.api.Test;

/** The radix indexer of dynamo-mocker.md §7.2: which rank holds how much of a request's prefix. */
class KvIndexTest {
    private static final long[] ABCD = local(11, 12, 13, 14);

    private final KvIndex index = new KvIndex();
    private final OverlapScores scores = new OverlapScores();

    private int match(WorkerWithDpRank worker, long... localHashes) {
        index.findMatches(localHashes, scores);
        return scores.blocks(worker);
    }

    @Test
    void shouldMatchAStoredChainBlockByBlock() {
        index.apply(stored(W1, ABCD));

        assertEquals(4, match(W1, 11, 12, 13, 14, 15));
        assertEquals(2, match(W1, 11, 12, 99, 14));
        assertEquals(0, match(W1, 99, 11));
        assertEquals(0, match(W2, 11, 12));
        assertEquals(4, index.nodeCount());
    }

    @Test
    void shouldGiveEachWorkerItsOwnLongestPrefixOverSharedBlocks() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, local(11, 12)));
        index.apply(stored(W3, local(11, 12, 15)));

        index.findMatches(local(11, 12, 13), scores);

        assertEquals(3, scores.blocks(W1));
        assertEquals(2, scores.blocks(W2));
        assertEquals(2, scores.blocks(W3));
        assertEquals(3, scores.matchedWorkers());
        assertEquals(3, scores.maxBlocks());
        assertEquals(5, index.nodeCount(), "shared blocks are one node each");
    }

    @Test
    void shouldExtendAChainFromAParentTheWorkerHolds() {
        index.apply(stored(W1, local(11, 12)));
        index.apply(storedFrom(W1, ABCD, 2));

        assertEquals(4, match(W1, ABCD));
        assertEquals(0, index.droppedEvents());
    }

    @Test
    void shouldDropAStoredRunWhoseParentTheWorkerDoesNotHold() {
        index.apply(stored(W2, ABCD));
        index.apply(storedFrom(W1, ABCD, 2));

        assertEquals(1, index.droppedEvents());
        assertEquals(0, match(W1, ABCD));
        assertEquals(0, index.blockCount(W1));
        assertEquals(4, match(W2, ABCD));
    }

    @Test
    void shouldNotMatchPastABlockRemovedFromTheMiddle() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, ABCD));
        index.apply(removed(W1, ABCD, 1));

        index.findMatches(ABCD, scores);

        assertEquals(1, scores.blocks(W1));
        assertEquals(4, scores.blocks(W2));
        assertEquals(3, index.blockCount(W1), "later blocks are still held, just unreachable");
    }

    @Test
    void shouldPruneBlocksNoWorkerHolds() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, local(11, 12)));

        index.apply(removed(W1, ABCD, 3, 2));
        assertEquals(2, index.nodeCount());
        index.apply(removed(W1, ABCD, 0, 1));
        assertEquals(2, index.nodeCount(), "W2 still holds the first two blocks");
        index.apply(removed(W2, ABCD, 1, 0));
        assertEquals(0, index.nodeCount());
        assertEquals(0, match(W2, ABCD));
    }

    @Test
    void shouldKeepAnEmptyInnerBlockUntilItsChildrenGo() {
        index.apply(stored(W1, ABCD));
        index.apply(removed(W1, ABCD, 1));
        assertEquals(4, index.nodeCount());

        index.apply(removed(W1, ABCD, 3, 2));
        assertEquals(1, index.nodeCount());
        assertEquals(1, match(W1, ABCD));
    }

    @Test
    void shouldIgnoreRepeatedStoresAndUnknownRemovals() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W1, ABCD));
        index.apply(removed(W2, ABCD, 0));
        index.apply(new KvEvent.Removed(W1, 0, new long[] {12345L}));

        assertEquals(4, index.blockCount(W1));
        assertEquals(4, index.nodeCount());
        assertEquals(4, match(W1, ABCD));
    }

    @Test
    void shouldForgetOnlyTheClearedWorker() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, local(11, 12)));

        index.apply(new KvEvent.Cleared(W1, 0));

        assertEquals(0, match(W1, ABCD));
        assertEquals(2, match(W2, ABCD));
        assertEquals(2, index.nodeCount());
        index.apply(stored(W1, local(11)));
        assertEquals(1, match(W1, ABCD));
    }

    @Test
    void shouldForgetARemovedWorkerAndReuseItsSlotForANewcomer() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, local(11)));

        index.removeWorker(W1);
        index.apply(stored(W3, local(11, 12)));
        index.findMatches(ABCD, scores);

        assertEquals(0, scores.blocks(W1));
        assertEquals(1, scores.blocks(W2));
        assertEquals(2, scores.blocks(W3));
        assertEquals(2, scores.matchedWorkers());
        assertEquals(2, index.nodeCount());
    }

    @Test
    void shouldScoreManyMoreWorkersThanOneBitSetWord() {
        long[] chain = new long[140];
        for (int i = 0; i < chain.length; i++) {
            chain[i] = 1000 + i;
        }
        // Worker i holds the first i + 1 blocks; workers beyond 64 arrive after the shared nodes exist.
        for (int w = 0; w < 130; w++) {
            index.apply(stored(WorkerWithDpRank.of(w), java.util.Arrays.copyOf(chain, w + 1)));
        }

        index.findMatches(chain, scores);

        for (int w = 0; w < 130; w++) {
            assertEquals(w + 1, scores.blocks(WorkerWithDpRank.of(w)), "worker " + w);
        }
        assertEquals(130, scores.matchedWorkers());
        assertEquals(130, scores.maxBlocks());
    }

    @Test
    void shouldReuseTheScoresBetweenQueries() {
        index.apply(stored(W1, ABCD));
        index.apply(stored(W2, local(21, 22)));

        assertEquals(4, match(W1, ABCD));
        index.findMatches(local(21, 22), scores);

        assertEquals(0, scores.blocks(W1));
        assertEquals(2, scores.blocks(W2));
        assertEquals(1, scores.matchedWorkers());
        assertEquals(W2, scores.matchedWorker(0));
        assertEquals(2, scores.matchedBlocks(0));
    }

    @Test
    void shouldForgetEveryScoreOfAWideMatchAndOfANarrowOne() {
        // 130 ranks share block 1; rank w alone holds block 100 + w after it.
        for (int w = 0; w < 130; w++) {
            index.apply(stored(WorkerWithDpRank.of(w), local(1, 100 + w)));
        }

        index.findMatches(local(1, 105), scores);
        assertEquals(130, scores.matchedWorkers());
        index.findMatches(local(1, 107), scores);
        assertEquals(2, scores.blocks(WorkerWithDpRank.of(7)));
        assertEquals(1, scores.blocks(WorkerWithDpRank.of(5)), "the wide match's 2 is gone");
        index.findMatches(local(9), scores);
        assertEquals(0, scores.matchedWorkers());
        assertEquals(0, scores.maxBlocks());
        for (int w = 0; w < 130; w++) {
            assertEquals(0, scores.blocks(WorkerWithDpRank.of(w)), "worker " + w);
        }
    }
}
