package dev.sluice.perf.select;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.select.ActiveLoad;
import dev.sluice.core.select.ActiveSequences;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.select.KvIndex;
import dev.sluice.core.select.OverlapScores;
import dev.sluice.core.select.SelectionCandidates;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * KV-aware placement of one request among {@link #workers} ranks: {@code findMatches} alone, and
 * {@code findMatches} plus filling the candidates (overlap, booked load, new blocks, and each rank's record: its
 * outside load and advertised capacity) and the default selector's choice. The fleet serves chats over
 * {@value #SYSTEM_PROMPTS} system prompts of {@value #SYSTEM_BLOCKS} blocks: each rank caches {@value #CACHED_CHATS}
 * chats, taking the system prompts in turn, and has the first {@value #BOOKED_PER_WORKER} of them booked. Requests
 * are a system prompt plus a {@value #TAIL_BLOCKS}-block tail, half of them continuing a cached chat. Hashing the
 * tokens is not measured (the router does it once per request, before selection).
 *
 * <p>The whole selection is split into its steps, so that a report shows where its time goes: {@code findMatches}
 * (the KV-index walk), {@code matchBooked} (the walk over the booked blocks), {@code fillCandidates} (one candidate
 * per rank from the two walks' results, its booked load read by its load slot from the active sequences' arrays and
 * its {@link Rank} record, all ranks in one {@link SelectionCandidates#addRanks} and costed for the default selector
 * there, as {@code WorkerTable.select} fills; for a queueing class each rank is first tested for busy) and
 * {@code select} (the default selector's choice over the filled candidates: at temperature 0 the cheapest is already
 * known, above it a draw). The last two rerun on the last request's results, so their data is warm; the steps add up
 * to about {@code findMatchesAndSelect}.
 *
 * <p>Run: {@code java -jar perf/target/benchmarks.jar SelectionBench -prof gc}; 0 B/op in
 * {@code gc.alloc.rate.norm} is the target.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SelectionBench {
    private static final int BLOCK_SIZE = 16;
    private static final int SYSTEM_PROMPTS = 4;
    private static final int SYSTEM_BLOCKS = 32;
    private static final int CACHED_CHATS = 16;
    private static final int BOOKED_PER_WORKER = 4;
    private static final int TAIL_BLOCKS = 16;
    private static final int REQUESTS = 1024;
    /** Outside blocks of every rank's last report: the same on each, so costs tie as the bookings make them. */
    private static final long OUTSIDE_BLOCKS = 8;
    private static final long TOTAL_KV_BLOCKS = 4096;
    private static final long MAX_NUM_BATCHED_TOKENS = 8192;

    @Param({"8", "32", "128"})
    public int workers;

    @Param({"0.0", "1.0"})
    public double temperature;

    /**
     * Whether each rank's booked prefill differs from every other's (so no two candidates cost the same), where by
     * default every rank has the same bookings (so most cost the same); the suite runs the default, {@code -p
     * distinctLoads=true} the other.
     */
    @Param({"false"})
    public boolean distinctLoads;

    /**
     * Whether the request's class queues ({@code --router-queue-threshold 0.9}): the fill then tests each rank for
     * busy, as the router does for such a class, and leaves the busy ones out (none is: the bookings stay far below
     * the threshold, as when the class's lane was found dispatchable). The suite runs the default, {@code -p
     * queueing=true} the other.
     */
    @Param({"false"})
    public boolean queueing;

    private final KvIndex index = new KvIndex();
    private final ActiveSequences active = new ActiveSequences();
    private final OverlapScores scores = new OverlapScores();
    private final SelectionCandidates candidates = new SelectionCandidates();
    private DefaultWorkerSelector selector;
    private WorkerWithDpRank[] ranks;
    /** Each rank's record in worker order, as the router's table keeps them. */
    private Rank[] records;
    private ActiveLoad[] loads;
    private int[] loadSlots;
    private int[] slots;
    /** The router's busy test of a class with {@code prefill_busy_threshold_frac: 0.9}. */
    private final SelectionCandidates.RankFilter busy =
        (rank, prefill) -> prefill > 0.9 * rank.maxNumBatchedTokens();
    private int[] rankOf;
    private long[][] requestLocal;
    private long[][] requestSequence;
    private int next;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(2025);
        selector = new DefaultWorkerSelector(BLOCK_SIZE, new DefaultSelectorSettings(1.0, temperature),
            new SplittableRandom(1));
        long[][] systems = new long[SYSTEM_PROMPTS][];
        for (int s = 0; s < SYSTEM_PROMPTS; s++) {
            systems[s] = randomBlocks(random, SYSTEM_BLOCKS);
        }
        long[][] chats = new long[workers * CACHED_CHATS][];
        ranks = new WorkerWithDpRank[workers];
        long requestKey = 0;
        for (int w = 0; w < workers; w++) {
            ranks[w] = new WorkerWithDpRank(w / 2, w % 2);
            for (int c = 0; c < CACHED_CHATS; c++) {
                long[] chat = concat(systems[(w + c) % SYSTEM_PROMPTS], randomBlocks(random, TAIL_BLOCKS));
                chats[w * CACHED_CHATS + c] = chat;
                index.apply(new KvEvent.Stored(ranks[w], c, false, KvEvent.NO_PARENT,
                    BlockHasher.sequenceHashes(chat), chat));
                if (c < BOOKED_PER_WORKER) {
                    active.add(requestKey++, ranks[w], BlockHasher.sequenceHashes(chat),
                        64L * c + (distinctLoads ? 16L * w : 0));
                }
            }
        }
        // The router keeps each rank's load slot in worker order, so selection reads the booked figures as arrays
        // with no lookup and no load object visited. So are its KV-index slots (checked against the index's slot
        // version): overlap is then an array read too. The load handles serve the per-candidate variant only.
        loads = new ActiveLoad[workers];
        loadSlots = new int[workers];
        slots = new int[workers];
        records = new Rank[workers];
        rankOf = new int[workers];
        for (int w = 0; w < workers; w++) {
            records[w] = new Rank(ranks[w], MAX_NUM_BATCHED_TOKENS, TOTAL_KV_BLOCKS, OUTSIDE_BLOCKS);
            loads[w] = active.load(ranks[w]);
            loadSlots[w] = loads[w].slot();
            slots[w] = index.slot(ranks[w]);
        }
        requestLocal = new long[REQUESTS][];
        requestSequence = new long[REQUESTS][];
        for (int r = 0; r < REQUESTS; r++) {
            long[] local = random.nextBoolean()
                ? Arrays.copyOf(chats[random.nextInt(chats.length)], SYSTEM_BLOCKS + TAIL_BLOCKS)
                : concat(systems[random.nextInt(SYSTEM_PROMPTS)], randomBlocks(random, TAIL_BLOCKS));
            requestLocal[r] = local;
            requestSequence[r] = BlockHasher.sequenceHashes(local);
        }
        // The steps measured alone start from one whole selection's results.
        findMatchesAndSelect();
    }

    @Benchmark
    public int findMatches() {
        long[] local = requestLocal[next++ & (REQUESTS - 1)];
        index.findMatches(local, scores);
        return scores.maxBlocks();
    }

    @Benchmark
    public int findMatchesAndSelect() {
        int r = next++ & (REQUESTS - 1);
        long[] local = requestLocal[r];
        long[] sequence = requestSequence[r];
        index.findMatches(local, scores);
        // Booked blocks of every rank in one walk over the request's blocks, as the router does.
        active.matchBooked(sequence, sequence.length);
        fill(local.length);
        return selector.select(candidates);
    }

    /** The booked blocks of every rank in one walk over a request's blocks, alone. */
    @Benchmark
    public int matchBooked() {
        long[] sequence = requestSequence[next++ & (REQUESTS - 1)];
        active.matchBooked(sequence, sequence.length);
        return active.newBlocksOfMatchedAt(loadSlots[0], sequence.length);
    }

    /** One candidate per rank from the last request's walks and the ranks' loads, alone. */
    @Benchmark
    public int fillCandidates() {
        int blocks = requestSequence[(next - 1) & (REQUESTS - 1)].length;
        fill(blocks);
        return candidates.candidateCount();
    }

    /**
     * One candidate per rank for a request of {@code blocks} blocks, as {@code WorkerTable.select} adds them: all at
     * once from their records, load slots and KV slots, each tested for busy first when the class queues.
     */
    private void fill(int blocks) {
        candidates.reset((long) blocks * BLOCK_SIZE, blocks, null, null);
        if (queueing) {
            candidates.addRanks(records, slots, loadSlots, scores, active, busy, rankOf);
        } else {
            candidates.addRanks(records, slots, loadSlots, scores, active);
        }
    }

    /** The default selector's choice among the last filled candidates, alone. */
    @Benchmark
    public int select() {
        return selector.select(candidates);
    }

    /** As {@link #findMatchesAndSelect} with each rank's booked blocks found by its own lookups (the old way). */
    @Benchmark
    public int findMatchesAndSelectPerCandidate() {
        int r = next++ & (REQUESTS - 1);
        long[] local = requestLocal[r];
        long[] sequence = requestSequence[r];
        index.findMatches(local, scores);
        candidates.reset((long) local.length * BLOCK_SIZE, local.length, null, null);
        int heldGuess = 0;
        for (int w = 0; w < ranks.length; w++) {
            ActiveLoad load = loads[w];
            int newBlocks = load.newBlocks(sequence, sequence.length, heldGuess);
            heldGuess = sequence.length - newBlocks;
            Rank rank = records[w];
            candidates.add(rank.id, scores.blocksAt(slots[w]), newBlocks, load.activePrefillTokens(),
                load.activeBlocks() + rank.outsideBlocks, rank.totalKvBlocks, rank.maxNumBatchedTokens);
        }
        return selector.select(candidates);
    }

    /** A rank's record as the router's table holds it: its id, advertised settings and last reported outside load. */
    private static final class Rank implements SelectionCandidates.Rank {
        final WorkerWithDpRank id;
        // Not final, as in the router's record: a rank that joins again may change its settings.
        long maxNumBatchedTokens;
        long totalKvBlocks;
        long outsideBlocks;

        Rank(WorkerWithDpRank id, long maxNumBatchedTokens, long totalKvBlocks, long outsideBlocks) {
            this.id = id;
            this.maxNumBatchedTokens = maxNumBatchedTokens;
            this.totalKvBlocks = totalKvBlocks;
            this.outsideBlocks = outsideBlocks;
        }

        @Override
        public WorkerWithDpRank id() {
            return id;
        }

        @Override
        public long outsideBlocks() {
            return outsideBlocks;
        }

        @Override
        public long totalKvBlocks() {
            return totalKvBlocks;
        }

        @Override
        public long maxNumBatchedTokens() {
            return maxNumBatchedTokens;
        }
    }

    private static long[] randomBlocks(SplittableRandom random, int count) {
        long[] blocks = new long[count];
        for (int i = 0; i < count; i++) {
            blocks[i] = random.nextLong();
        }
        return blocks;
    }

    private static long[] concat(long[] head, long[] tail) {
        long[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
