package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The index against a plain model under random stored, removed, cleared and worker-removal events: a rank's score
 * for a query is the number of leading query blocks whose sequence hash it holds, and a stored run is kept only
 * when the rank holds its parent.
 */
class KvIndexDifferentialTest {
    private static final int PROMPTS = 12;

    @Test
    void shouldAgreeWithASetPerWorkerUnderRandomEvents() {
        // Enough ranks that slots past 63 stay in use (with 70, removals kept nearly all below 64): two words.
        agreeUnderRandomEvents(110, 7);
    }

    @Test
    void shouldAgreeWithASetPerWorkerUnderRandomEventsWithinOneBitSetWord() {
        // Up to 64 ranks: one bit-set word, the narrow walk with its second word empty.
        agreeUnderRandomEvents(40, 9);
    }

    @Test
    void shouldAgreeWithASetPerWorkerUnderRandomEventsBeyondTheFirstTwoBitSetWords() {
        // Over 128 ranks: slots past the words a node keeps as fields.
        agreeUnderRandomEvents(150, 8);
    }

    private static void agreeUnderRandomEvents(int workers, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[][] prompts = prompts(random);
        KvIndex index = new KvIndex();
        OverlapScores scores = new OverlapScores();
        Map<WorkerWithDpRank, Set<Long>> model = new HashMap<>();
        long dropped = 0;
        for (int step = 0; step < 20_000; step++) {
            WorkerWithDpRank worker = WorkerWithDpRank.of(random.nextInt(workers));
            Set<Long> held = model.computeIfAbsent(worker, w -> new HashSet<>());
            long[] local = prompts[random.nextInt(PROMPTS)];
            long[] sequence = BlockHasher.sequenceHashes(local);
            int roll = random.nextInt(100);
            if (roll < 55) {
                int from = random.nextInt(local.length);
                int to = from + 1 + random.nextInt(local.length - from);
                if (from > 0 && !held.contains(sequence[from - 1])) {
                    dropped++;
                } else {
                    for (int i = from; i < to; i++) {
                        held.add(sequence[i]);
                    }
                }
                index.apply(new KvEvent.Stored(worker, step, from > 0, from > 0 ? sequence[from - 1] : 0,
                    Arrays.copyOfRange(sequence, from, to), Arrays.copyOfRange(local, from, to)));
            } else if (roll < 95) {
                long hash = sequence[random.nextInt(sequence.length)];
                held.remove(hash);
                index.apply(new KvEvent.Removed(worker, step, new long[] {hash}));
            } else if (roll < 98) {
                held.clear();
                index.apply(new KvEvent.Cleared(worker, step));
            } else {
                held.clear();
                index.removeWorker(worker);
            }
            long[] query = prompts[random.nextInt(PROMPTS)];
            index.findMatches(query, scores);
            assertScores(model, query, scores, step);
        }
        assertEquals(dropped, index.droppedEvents());
    }

    private static void assertScores(Map<WorkerWithDpRank, Set<Long>> model, long[] query, OverlapScores scores,
                                     int step) {
        long[] sequence = BlockHasher.sequenceHashes(query);
        Map<WorkerWithDpRank, Integer> matched = new HashMap<>();
        int longest = 0;
        for (Map.Entry<WorkerWithDpRank, Set<Long>> entry : model.entrySet()) {
            int expected = 0;
            while (expected < sequence.length && entry.getValue().contains(sequence[expected])) {
                expected++;
            }
            if (expected > 0) {
                matched.put(entry.getKey(), expected);
            }
            longest = Math.max(longest, expected);
            assertEquals(expected, scores.blocks(entry.getKey()), "step " + step + " " + entry.getKey());
        }
        assertEquals(matched.size(), scores.matchedWorkers(), "step " + step);
        assertEquals(longest, scores.maxBlocks(), "step " + step);
        // The list of matched ranks: each matched rank once, with its blocks.
        Map<WorkerWithDpRank, Integer> listed = new HashMap<>();
        for (int i = 0; i < scores.matchedWorkers(); i++) {
            listed.put(scores.matchedWorker(i), scores.matchedBlocks(i));
        }
        assertEquals(matched, listed, "step " + step);
    }

    /** Prompts sharing prefixes of various lengths, like chats over a few system prompts. */
    private static long[][] prompts(SplittableRandom random) {
        List<long[]> prompts = new ArrayList<>();
        long[] system = new long[6];
        for (int i = 0; i < system.length; i++) {
            system[i] = random.nextLong();
        }
        for (int p = 0; p < PROMPTS; p++) {
            long[] prompt = new long[3 + random.nextInt(8)];
            int shared = random.nextInt(Math.min(prompt.length, system.length) + 1);
            for (int i = 0; i < prompt.length; i++) {
                prompt[i] = i < shared ? system[i] : random.nextLong();
            }
            prompts.add(prompt);
        }
        return prompts.toArray(new long[0][]);
    }
}
