package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SelectionCandidates#addRanks}, every rank in one pass, against one full {@link SelectionCandidates#add} per
 * rank with the figures read the same way: the same candidates, figure by figure, and the same choices of the
 * built-in selector at temperature 0 and above, over a fleet with cached and booked prefixes, ranks the KV index does
 * not know, requests without blocks and candidates added before the pass; and with a filter that leaves ranks out (by
 * their booked prefill and by their record), each candidate's rank given by the pass's {@code rankOf}.
 */
class SelectionCandidatesAddRanksTest {
    private static final int BLOCK_SIZE = 16;
    private static final int RANKS = 40;
    /** Candidates some fills add before the ranks. */
    private static final WorkerWithDpRank[] LEADING = {WorkerWithDpRank.of(1000), WorkerWithDpRank.of(1001),
        WorkerWithDpRank.of(1002)};

    private final KvIndex index = new KvIndex();
    private final ActiveSequences active = new ActiveSequences();
    private final OverlapScores scores = new OverlapScores();
    private final SelectionCandidates oneByOne = new SelectionCandidates();
    private final SelectionCandidates inOnePass = new SelectionCandidates();
    /** Leaves out ranks with more than 150 prefill tokens booked, and every seventh rank whatever its load. */
    private final SelectionCandidates.RankFilter busy =
        (rank, prefill) -> prefill > 150 || rank.id().workerId() % 7 == 3;
    private final int[] rankOf = new int[LEADING.length + RANKS];

    @Test
    void shouldOfferTheCandidatesAndChoicesOfOneFullAddPerRank() {
        SplittableRandom random = new SplittableRandom(17);
        long[][] chains = new long[6][];
        for (int c = 0; c < chains.length; c++) {
            chains[c] = random.longs(24).toArray();
        }
        Rank[] ranks = new Rank[RANKS];
        int[] kvSlots = new int[RANKS];
        int[] loadSlots = new int[RANKS];
        long key = 0;
        for (int r = 0; r < RANKS; r++) {
            ranks[r] = new Rank(WorkerWithDpRank.of(r), random.nextInt(3) * 10L, r % 3 == 0 ? -1 : 4096 + r,
                2048 + r);
            long[] chain = chains[random.nextInt(chains.length)];
            if (r % 5 != 4) {
                // Every fifth rank caches nothing: the index has no slot for it.
                index.apply(KvFixtures.stored(ranks[r].id, Arrays.copyOf(chain, 1 + random.nextInt(chain.length))));
            }
            if (r % 2 == 0) {
                long[] booked = chains[random.nextInt(chains.length)];
                active.add(key++, ranks[r].id, KvFixtures.sequence(Arrays.copyOf(booked, 1 + random.nextInt(24))),
                    random.nextInt(4) * 100L);
            }
            kvSlots[r] = index.slot(ranks[r].id);
            loadSlots[r] = active.loadOrCreate(ranks[r].id).slot();
        }
        for (double temperature : new double[] {0.0, 1.0}) {
            DefaultSelectorSettings settings = new DefaultSelectorSettings(1.0, temperature);
            DefaultWorkerSelector first = new DefaultWorkerSelector(BLOCK_SIZE, settings, new SplittableRandom(3));
            DefaultWorkerSelector second = new DefaultWorkerSelector(BLOCK_SIZE, settings, new SplittableRandom(3));
            for (int round = 0; round < 300; round++) {
                long[] chain = chains[random.nextInt(chains.length)];
                // Some requests have no blocks (no overlap to read); most share a cached or booked prefix.
                long[] local = round % 9 == 0 ? new long[0] : Arrays.copyOf(chain, 1 + random.nextInt(24));
                int leading = round % 4 == 0 ? 1 + random.nextInt(LEADING.length) : 0;
                boolean filtered = round % 3 == 1;
                fill(oneByOne, local, leading, ranks, kvSlots, loadSlots, false, filtered);
                fill(inOnePass, local, leading, ranks, kvSlots, loadSlots, true, filtered);
                String where = "temperature " + temperature + ", round " + round + (filtered ? ", filtered" : "");
                assertSameCandidates(where);
                if (filtered) {
                    assertTrue(inOnePass.candidateCount() < leading + RANKS, where + ": the filter left none out");
                    for (int c = leading; c < inOnePass.candidateCount(); c++) {
                        assertSame(ranks[rankOf[c]].id, inOnePass.worker(c), where + ", candidate " + c);
                    }
                }
                assertEquals(first.select(oneByOne), second.select(inOnePass), where);
                assertEquals(first.select(oneByOne), second.select(inOnePass), where + ", again");
            }
        }
    }

    /**
     * Fills {@code candidates} for the request: {@code leading} candidates first, then every rank ({@code filtered}:
     * every rank {@link #busy} does not leave out).
     */
    private void fill(SelectionCandidates candidates, long[] local, int leading, Rank[] ranks, int[] kvSlots,
                      int[] loadSlots, boolean onePass, boolean filtered) {
        int blocks = local.length;
        index.findMatches(local, scores);
        long[] sequence = KvFixtures.sequence(local);
        active.matchBooked(sequence, blocks);
        candidates.reset((long) blocks * BLOCK_SIZE + 3, blocks, null, null);
        for (int i = 0; i < leading; i++) {
            candidates.add(LEADING[i], 0, blocks, 50L * i, i, -1, -1);
        }
        if (onePass) {
            if (filtered) {
                candidates.addRanks(ranks, blocks == 0 ? null : kvSlots, loadSlots, scores, active, busy, rankOf);
            } else {
                candidates.addRanks(ranks, blocks == 0 ? null : kvSlots, loadSlots, scores, active);
            }
            return;
        }
        for (int r = 0; r < ranks.length; r++) {
            int loadSlot = loadSlots[r];
            if (filtered && busy.excludes(ranks[r], active.activePrefillTokensAt(loadSlot))) {
                continue;
            }
            candidates.add(ranks[r].id, blocks == 0 ? 0 : scores.blocksAt(kvSlots[r]),
                active.newBlocksOfMatchedAt(loadSlot, blocks), active.activePrefillTokensAt(loadSlot),
                active.activeBlocksAt(loadSlot) + ranks[r].outsideBlocks, ranks[r].totalKvBlocks,
                ranks[r].maxNumBatchedTokens);
        }
    }

    private void assertSameCandidates(String where) {
        assertEquals(oneByOne.candidateCount(), inOnePass.candidateCount(), where);
        assertEquals(oneByOne.inputTokens(), inOnePass.inputTokens(), where);
        for (int i = 0; i < oneByOne.candidateCount(); i++) {
            String at = where + ", candidate " + i;
            assertSame(oneByOne.worker(i), inOnePass.worker(i), at);
            assertEquals(oneByOne.overlapBlocks(i), inOnePass.overlapBlocks(i), at);
            assertEquals(oneByOne.newBlocks(i), inOnePass.newBlocks(i), at);
            assertEquals(oneByOne.activePrefillTokens(i), inOnePass.activePrefillTokens(i), at);
            assertEquals(oneByOne.activeDecodeBlocks(i), inOnePass.activeDecodeBlocks(i), at);
            assertEquals(oneByOne.totalKvBlocks(i), inOnePass.totalKvBlocks(i), at);
            assertEquals(oneByOne.maxNumBatchedTokens(i), inOnePass.maxNumBatchedTokens(i), at);
        }
    }

    private record Rank(WorkerWithDpRank id, long outsideBlocks, long totalKvBlocks, long maxNumBatchedTokens)
        implements SelectionCandidates.Rank {
    }
}
