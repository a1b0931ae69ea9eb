package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;
import org.agrona.collections.Long2LongCounterMap;

/**
 * The router's own load estimate for one worker rank (dynamo-mocker.md §7.3): prefill tokens of booked requests
 * that have not produced a first token, and the distinct blocks of every booked request, refcounted so that a
 * prefix shared by several requests counts once. Read through {@link ActiveSequences}; a router may keep a
 * reference per worker to skip the lookup. Changed only by {@link ActiveSequences}.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class ActiveLoad {
    private final WorkerWithDpRank worker;
    private final Long2LongCounterMap blocks = new Long2LongCounterMap(0L);
    private long prefillTokens;
    private int requests;

    ActiveLoad(WorkerWithDpRank worker) {
        this.worker = worker;
    }

    public WorkerWithDpRank worker() {
        return worker;
    }

    /** Prefill tokens booked here and still waiting for their first token. */
    public long activePrefillTokens() {
        return prefillTokens;
    }

    /** Distinct blocks of the requests booked here. */
    public long activeBlocks() {
        return blocks.size();
    }

    /** Requests booked here and not yet freed. */
    public int activeRequests() {
        return requests;
    }

    /**
     * Blocks of {@code sequenceHashes[0 .. count)} not among this rank's active blocks. The hashes must be a chain
     * from the request's first block (as {@link BlockHasher#sequenceHashes} makes them): every booked request's
     * blocks are such a chain too, and a sequence hash names its whole prefix, so the blocks held form a leading
     * run and a binary search finds its end in O(log count) lookups.
     */
    public int newBlocks(long[] sequenceHashes, int count) {
        return newBlocks(sequenceHashes, count, 0);
    }

    /**
     * As {@link #newBlocks(long[], int)}, trying {@code heldGuess} held blocks first: when this rank holds exactly
     * that many leading blocks (two lookups tell), the search is skipped. Ranks of one fleet mostly hold the same
     * shared prefix of a request, so the previous candidate's answer is a good guess; any guess gives the same result.
     */
    public int newBlocks(long[] sequenceHashes, int count, int heldGuess) {
        boolean guessHeld = heldGuess > 0 && heldGuess <= count && blocks.containsKey(sequenceHashes[heldGuess - 1]);
        if (guessHeld && (heldGuess == count || !blocks.containsKey(sequenceHashes[heldGuess]))) {
            // Holding block guess-1 means holding every block before it (a chain): two lookups settle it.
            return count - heldGuess;
        }
        if (count == 0 || (!guessHeld && !blocks.containsKey(sequenceHashes[0]))) {
            // Most ranks share no prefix with a given request: one lookup settles them.
            return count;
        }
        int low = guessHeld ? heldGuess + 1 : 1;
        int high = count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (blocks.containsKey(sequenceHashes[mid])) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return count - low;
    }

    void add(long[] sequenceHashes, int count, long tokens) {
        for (int i = 0; i < count; i++) {
            blocks.incrementAndGet(sequenceHashes[i]);
        }
        prefillTokens += tokens;
        requests++;
    }

    void prefillDone(long tokens) {
        prefillTokens -= tokens;
    }

    void free(long[] sequenceHashes, int count) {
        for (int i = 0; i < count; i++) {
            // The counter map drops a key whose count returns to 0, so the size stays the distinct count.
            blocks.decrementAndGet(sequenceHashes[i]);
        }
        requests--;
    }

    @Override
    public String toString() {
        return worker + " prefill=" + prefillTokens + " blocks=" + blocks.size() + " requests=" + requests;
    }
}
