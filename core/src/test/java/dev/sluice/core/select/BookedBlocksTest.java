package dev.sluice.core.select;

import static dev.sluice.core.select.KvFixtures.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The bisected match of booked blocks ({@link ActiveSequences#matchBooked}) against the per-rank computation it
 * replaces ({@link ActiveLoad#newBlocks}) and both against a model kept here (each rank's refcount per block, in a
 * plain map): random prefix trees, bookings, frees and ranks leaving and rejoining, over more than 64 ranks so that
 * the bit sets span several words.
 */
class BookedBlocksTest {
    private static final int RANKS = 150;

    @Test
    void shouldMatchEveryRankLikeItsOwnLookupsOverRandomTreesAndBookings() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 40; round++) {
            long[][] prefixes = new long[1 + random.nextInt(4)][];
            for (int p = 0; p < prefixes.length; p++) {
                prefixes[p] = randomBlocks(random, 1 + random.nextInt(24));
            }
            ActiveSequences active = new ActiveSequences();
            WorkerWithDpRank[] ranks = new WorkerWithDpRank[RANKS];
            for (int w = 0; w < RANKS; w++) {
                ranks[w] = new WorkerWithDpRank(w / 2, w % 2);
            }
            List<Long> live = new ArrayList<>();
            Map<Long, long[]> chains = new HashMap<>();
            Map<Long, Map<Long, Integer>> bookedIn = new HashMap<>();
            List<Map<Long, Integer>> model = new ArrayList<>();
            for (int w = 0; w < RANKS; w++) {
                model.add(new HashMap<>());
            }
            long nextKey = 0;
            for (int step = 0; step < 600; step++) {
                int action = random.nextInt(10);
                if (action < 6) {
                    int rank = random.nextInt(1 + random.nextInt(RANKS));
                    long[] chain = sequence(request(prefixes, random));
                    active.add(nextKey, ranks[rank], chain, random.nextInt(100));
                    chains.put(nextKey, chain);
                    bookedIn.put(nextKey, model.get(rank));
                    for (long block : chain) {
                        model.get(rank).merge(block, 1, Integer::sum);
                    }
                    live.add(nextKey++);
                } else if (action < 9 && !live.isEmpty()) {
                    long key = live.remove(random.nextInt(live.size()));
                    active.free(key);
                    for (long block : chains.get(key)) {
                        bookedIn.get(key).merge(block, -1, (a, b) -> a + b == 0 ? null : a + b);
                    }
                } else if (action == 9) {
                    int rank = random.nextInt(RANKS);
                    active.removeWorker(ranks[rank]);
                    model.set(rank, new HashMap<>());
                }
                if (step % 20 == 0) {
                    String where = "round " + round + ", step " + step;
                    long[] request = sequence(request(prefixes, random));
                    assertSameAsPerRank(active, ranks, request, where);
                    assertSameAsModel(active, ranks, model, request, where);
                }
            }
            for (long key : live) {
                active.free(key);
            }
            assertSameAsPerRank(active, ranks, sequence(request(prefixes, random)), "round " + round + ", all freed");
        }
    }

    @Test
    void shouldMatchNothingForAnEmptyRequestOrAnEmptyBook() {
        ActiveSequences active = new ActiveSequences();
        ActiveLoad load = active.loadOrCreate(KvFixtures.W1);
        active.matchBooked(new long[0], 0);
        assertEquals(0, load.newBlocksOfMatched(0));
        long[] chain = sequence(new long[] {1, 2, 3});
        active.matchBooked(chain, chain.length);
        assertEquals(3, load.newBlocksOfMatched(3));
        active.add(1, KvFixtures.W1, chain, 0);
        active.matchBooked(chain, 2);
        assertEquals(0, load.newBlocksOfMatched(2));
        active.free(1);
        active.matchBooked(chain, chain.length);
        assertEquals(3, load.newBlocksOfMatched(3));
    }

    @Test
    void shouldSweepBlocksNoLoadHoldsAndKeepMatching() {
        SplittableRandom random = new SplittableRandom(5);
        ActiveSequences active = new ActiveSequences();
        long[] kept = sequence(randomBlocks(random, 8));
        active.add(0, KvFixtures.W1, kept, 0);
        for (long key = 1; key <= 5000; key++) {
            long[] chain = sequence(randomBlocks(random, 4));
            active.add(key, KvFixtures.W2, chain, 0);
            active.free(key);
            assertEquals(kept.length, active.booked().blockCount(), "after request " + key);
        }
        assertTrue(active.booked().records() < 3000, active.booked().records() + " records left");
        ActiveLoad w1 = active.loadOrCreate(KvFixtures.W1);
        ActiveLoad w2 = active.loadOrCreate(KvFixtures.W2);
        assertEquals(0, w2.activeBlocks());
        active.matchBooked(kept, kept.length);
        assertEquals(0, w1.newBlocksOfMatched(kept.length));
        assertEquals(kept.length, w2.newBlocksOfMatched(kept.length));
        active.add(9000, KvFixtures.W2, kept, 0);
        active.matchBooked(kept, kept.length);
        assertEquals(0, w2.newBlocksOfMatched(kept.length));
        assertEquals(kept.length, w2.activeBlocks());
    }

    private static void assertSameAsModel(ActiveSequences active, WorkerWithDpRank[] ranks,
                                          List<Map<Long, Integer>> model, long[] request, String where) {
        active.matchBooked(request, request.length);
        for (int w = 0; w < ranks.length; w++) {
            Map<Long, Integer> refs = model.get(w);
            int held = 0;
            while (held < request.length && refs.containsKey(request[held])) {
                held++;
            }
            ActiveLoad load = active.loadOrCreate(ranks[w]);
            assertEquals(refs.size(), load.activeBlocks(), where + ", distinct blocks of " + ranks[w]);
            assertEquals(request.length - held, load.newBlocksOfMatched(request.length), where + ", " + ranks[w]);
        }
    }

    private static void assertSameAsPerRank(ActiveSequences active, WorkerWithDpRank[] ranks, long[] request,
                                            String where) {
        int count = request.length;
        active.matchBooked(request, count);
        for (WorkerWithDpRank rank : ranks) {
            ActiveLoad load = active.loadOrCreate(rank);
            assertEquals(load.newBlocks(request, count), load.newBlocksOfMatched(count), where + ", " + rank);
        }
        // A shorter view of the same request matches like the shorter request.
        int shorter = count / 2;
        active.matchBooked(request, shorter);
        for (WorkerWithDpRank rank : ranks) {
            ActiveLoad load = active.loadOrCreate(rank);
            assertEquals(load.newBlocks(request, shorter), load.newBlocksOfMatched(shorter),
                where + ", first " + shorter + " blocks, " + rank);
        }
    }

    /** One of the prefixes, cut at a random length, then a tail drawn from few values so that tails collide. */
    private static long[] request(long[][] prefixes, SplittableRandom random) {
        long[] prefix = prefixes[random.nextInt(prefixes.length)];
        int shared = random.nextInt(prefix.length + 1);
        long[] local = new long[Math.max(1, shared + random.nextInt(8))];
        for (int i = 0; i < local.length; i++) {
            local[i] = i < shared ? prefix[i] : random.nextLong(3);
        }
        return local;
    }

    private static long[] randomBlocks(SplittableRandom random, int count) {
        long[] blocks = new long[count];
        for (int i = 0; i < count; i++) {
            blocks[i] = random.nextLong();
        }
        return blocks;
    }
}
