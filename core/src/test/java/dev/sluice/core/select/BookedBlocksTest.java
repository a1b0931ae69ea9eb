package dev.sluice.core.select;

import static dev.sluice.core.select.KvFixtures.sequence;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The one-walk match of booked blocks ({@link ActiveSequences#matchBooked}) against the per-rank computation it
 * replaces ({@link ActiveLoad#newBlocks}): random prefix trees, bookings, frees and ranks leaving and rejoining, over
 * more than 64 ranks so that the bit sets span several words.
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
            long nextKey = 0;
            for (int step = 0; step < 600; step++) {
                int action = random.nextInt(10);
                if (action < 6) {
                    WorkerWithDpRank rank = ranks[random.nextInt(1 + random.nextInt(RANKS))];
                    long[] chain = sequence(request(prefixes, random));
                    active.add(nextKey, rank, chain, random.nextInt(100));
                    live.add(nextKey++);
                } else if (action < 9 && !live.isEmpty()) {
                    active.free(live.remove(random.nextInt(live.size())));
                } else if (action == 9) {
                    active.removeWorker(ranks[random.nextInt(RANKS)]);
                }
                if (step % 20 == 0) {
                    assertSameAsPerRank(active, ranks, sequence(request(prefixes, random)), "round " + round
                        + ", step " + step);
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
