package dev.sluice.core.select;

import static dev.sluice.core.select.KvFixtures.W1;
import static dev.sluice.core.select.KvFixtures.W2;
import static dev.sluice.core.select.KvFixtures.W3;
import static dev.sluice.core.select.KvFixtures.local;
import static dev.sluice.core.select.KvFixtures.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The router's booked load per rank (dynamo-mocker.md §7.3). */
class ActiveSequencesTest {
    private static final long[] ABC = sequence(local(1, 2, 3));
    private static final long[] ABD = sequence(local(1, 2, 4));

    private final ActiveSequences active = new ActiveSequences();

    @Test
    void shouldCountAPrefixSharedByBookedRequestsOnce() {
        active.add(1, W1, ABC, 30);
        active.add(2, W1, ABD, 30);

        assertEquals(4, active.activeBlocks(W1));
        active.free(1);
        assertEquals(3, active.activeBlocks(W1));
        active.free(2);
        assertEquals(0, active.activeBlocks(W1));
        assertEquals(0, active.activePrefillTokens(W1));
        assertEquals(0, active.load(W1).activeRequests());
    }

    @Test
    void shouldKeepPrefillTokensOnlyUntilTheFirstToken() {
        active.add(1, W1, ABC, 100);
        active.add(2, W1, ABD, 50);
        assertEquals(150, active.activePrefillTokens(W1));

        assertTrue(active.prefillCompleted(1));
        assertEquals(50, active.activePrefillTokens(W1));
        assertEquals(4, active.activeBlocks(W1), "blocks stay until the request completes");
        assertFalse(active.prefillCompleted(1));
        assertEquals(50, active.activePrefillTokens(W1));

        active.free(2);
        assertEquals(0, active.activePrefillTokens(W1), "an abort before the first token releases its prefill");
    }

    @Test
    void shouldReleaseEachBookingExactlyOnce() {
        active.add(1, W1, ABC, 10);

        assertFalse(active.add(1, W2, ABD, 99), "a key is booked once");
        assertEquals(0, active.activeBlocks(W2));
        assertTrue(active.free(1));
        assertFalse(active.free(1));
        assertFalse(active.free(7));
        assertFalse(active.prefillCompleted(7));
        assertEquals(0, active.activeBlocks(W1));
        assertEquals(0, active.activePrefillTokens(W1));
        assertEquals(0, active.size());
    }

    @Test
    void shouldCountOnlyBlocksTheWorkerHasNotBooked() {
        active.add(1, W1, ABC, 0);
        long[] request = sequence(local(1, 2, 9, 10));

        assertEquals(2, active.newBlocks(W1, request, request.length));
        assertEquals(4, active.newBlocks(W2, request, request.length));
        assertEquals(0, active.newBlocks(W1, ABC, 3));
        assertEquals(3, active.newBlocks(W1, sequence(local(9, 1, 2)), 3), "same content elsewhere is not shared");
    }

    @Test
    void shouldCountNewBlocksLikeALinearScanOverRandomChains() {
        SplittableRandom random = new SplittableRandom(3);
        long[] base = new long[40];
        for (int i = 0; i < base.length; i++) {
            base[i] = random.nextLong();
        }
        for (int round = 0; round < 200; round++) {
            ActiveSequences sequences = new ActiveSequences();
            Set<Long> booked = new HashSet<>();
            for (int r = 0; r < 1 + random.nextInt(6); r++) {
                long[] chain = sequence(branch(base, random));
                sequences.add(r, W1, chain, 0);
                for (long hash : chain) {
                    booked.add(hash);
                }
            }
            long[] request = sequence(branch(base, random));
            int expected = 0;
            for (long hash : request) {
                expected += booked.contains(hash) ? 0 : 1;
            }
            assertEquals(expected, sequences.newBlocks(W1, request, request.length), "round " + round);
            for (int guess = 0; guess <= request.length + 1; guess++) {
                // A guessed held prefix, right or wrong, never changes the answer.
                assertEquals(expected, sequences.load(W1).newBlocks(request, request.length, guess),
                    "round " + round + ", guess " + guess);
            }
            assertEquals(booked.size(), sequences.activeBlocks(W1));
        }
    }

    @Test
    void shouldKeepRanksApartAndForgetALeavingRank() {
        active.add(1, W1, ABC, 10);
        active.add(2, W2, ABC, 20);
        assertEquals(10, active.activePrefillTokens(W1));
        assertEquals(20, active.activePrefillTokens(W2));

        active.removeWorker(W1);
        assertEquals(0, active.activeBlocks(W1));
        assertTrue(active.free(1), "a booking on a departed rank still frees once");
        active.add(3, W1, ABD, 5);
        assertEquals(5, active.activePrefillTokens(W1));
        assertEquals(3, active.activeBlocks(W1));
    }

    @Test
    void shouldReadEachRanksFiguresBySlotAsItsLoadGivesThem() {
        active.add(1, W1, ABC, 100);
        active.add(2, W2, ABD, 40);
        active.add(3, W2, ABC, 2);
        active.prefillCompleted(2);
        ActiveLoad w1 = active.load(W1);
        ActiveLoad w2 = active.load(W2);
        assertNotEquals(w1.slot(), w2.slot());

        active.matchBooked(ABC, 3);
        for (ActiveLoad load : new ActiveLoad[] {w1, w2}) {
            assertEquals(load.activePrefillTokens(), active.activePrefillTokensAt(load.slot()), load.toString());
            assertEquals(load.activeBlocks(), active.activeBlocksAt(load.slot()), load.toString());
            assertEquals(load.newBlocksOfMatched(3), active.newBlocksOfMatchedAt(load.slot(), 3), load.toString());
        }
        assertEquals(2, active.activePrefillTokensAt(w2.slot()));
        assertEquals(4, active.activeBlocksAt(w2.slot()));
    }

    @Test
    void shouldKeepALeavingRanksFiguresApartFromTheRankTakingItsSlot() {
        active.add(1, W1, ABC, 10);
        active.add(2, W1, ABD, 20);
        ActiveLoad gone = active.load(W1);
        int slot = gone.slot();

        active.removeWorker(W1);
        ActiveLoad next = active.loadOrCreate(W3);
        assertEquals(slot, next.slot(), "the departed rank's slot is reused");
        assertEquals(-1, gone.slot());
        assertEquals(0, next.activePrefillTokens(), "a new rank starts from zero");
        assertEquals(0, next.activeRequests());
        assertEquals(0, active.activeBlocksAt(slot));
        assertEquals(30, gone.activePrefillTokens(), "the departed load keeps its prefill tokens");
        assertEquals(2, gone.activeRequests());
        assertEquals(0, gone.activeBlocks());

        active.add(3, W3, ABC, 7);
        assertTrue(active.prefillCompleted(1));
        assertTrue(active.free(2));
        assertEquals(0, gone.activePrefillTokens());
        assertEquals(1, gone.activeRequests());
        assertEquals(7, next.activePrefillTokens(), "the departed rank's frees leave the new one's figures alone");
        assertEquals(7, active.activePrefillTokensAt(slot));
        assertEquals(3, active.activeBlocksAt(slot));
        assertEquals(1, next.activeRequests());
    }

    @Test
    void shouldReuseBookingsForLongerRequests() {
        long[] longChain = new long[300];
        for (int i = 0; i < longChain.length; i++) {
            longChain[i] = i + 1;
        }
        for (int key = 0; key < 10; key++) {
            active.add(key, W1, key % 2 == 0 ? ABC : longChain, 1);
            active.free(key);
        }
        active.add(99, W1, longChain, 1);
        assertEquals(300, active.activeBlocks(W1));
    }

    /** The first 0..n blocks of {@code base} followed by a random tail: a request sharing a prefix. */
    private static long[] branch(long[] base, SplittableRandom random) {
        long[] local = new long[1 + random.nextInt(base.length)];
        int shared = random.nextInt(local.length + 1);
        for (int i = 0; i < local.length; i++) {
            local[i] = i < shared ? base[i] : random.nextLong(4);
        }
        return local;
    }

    @Test
    void shouldForgetEveryMatchedRunOfTheLastMatch() {
        long[] shared = sequence(local(1, 2, 3));
        long[] own = sequence(local(7, 8, 9));
        ActiveLoad[] loads = new ActiveLoad[100];
        for (int w = 0; w < loads.length; w++) {
            WorkerWithDpRank rank = new WorkerWithDpRank(1000 + w, 0);
            active.add(w, rank, shared, 0);
            loads[w] = active.load(rank);
        }
        active.add(100, W1, own, 0);

        active.matchBooked(shared, 3);
        for (ActiveLoad load : loads) {
            assertEquals(0, load.newBlocksOfMatched(3));
        }
        assertEquals(3, active.load(W1).newBlocksOfMatched(3));
        active.matchBooked(own, 3);
        assertEquals(0, active.load(W1).newBlocksOfMatched(3));
        assertEquals(3, loads[5].newBlocksOfMatched(3), "the wide match's run is gone");
        active.matchBooked(sequence(local(9, 9)), 2);
        assertEquals(2, active.load(W1).newBlocksOfMatched(2));
        for (ActiveLoad load : loads) {
            assertEquals(2, load.newBlocksOfMatched(2));
        }
    }
}
