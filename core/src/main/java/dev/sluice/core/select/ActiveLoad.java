package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.kv.BlockHasher;

/**
 * The router's own load estimate for one worker rank (dynamo-mocker.md §7.3): prefill tokens of booked requests
 * that have not produced a first token, and the distinct blocks of every booked request, refcounted so that a
 * prefix shared by several requests counts once (the refcounts live in the {@link BookedBlocks} shared by every load
 * of one {@link ActiveSequences}, one lookup per block). Read through {@link ActiveSequences}; a router may keep a
 * reference per worker to skip the lookup, or its {@link #slot} to read the figures of every rank as arrays
 * ({@link ActiveSequences#activePrefillTokensAt} and its siblings). Changed only by {@link ActiveSequences}.
 *
 * <p>A handle: while the rank is in the fleet its figures live in the {@link LoadFigures} of its
 * {@link ActiveSequences}, in its slot; once {@link #detach}ed (the rank left) in the handle itself.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
public final class ActiveLoad {
    private final WorkerWithDpRank worker;
    private final BookedBlocks booked;
    private final LoadFigures figures;
    /** This load's bit in {@link #booked} and place in {@link #figures}; -1 once {@link #detach}ed. */
    private int slot;
    /** Prefill tokens once detached (the figures' slot went to another load); unused before. */
    private long detachedPrefillTokens;
    /** Requests once detached; unused before. */
    private int detachedRequests;

    ActiveLoad(WorkerWithDpRank worker, BookedBlocks booked, LoadFigures figures) {
        this.worker = worker;
        this.booked = booked;
        this.figures = figures;
        this.slot = booked.newSlot();
        figures.claim(slot);
    }

    public WorkerWithDpRank worker() {
        return worker;
    }

    /**
     * This load's place in the slot-indexed figures of its {@link ActiveSequences}, fixed until the rank is removed
     * ({@link ActiveSequences#removeWorker}); -1 after.
     */
    public int slot() {
        return slot;
    }

    /** Prefill tokens booked here and still waiting for their first token. */
    public long activePrefillTokens() {
        return slot < 0 ? detachedPrefillTokens : figures.prefillTokens(slot);
    }

    /** Distinct blocks of the requests booked here. */
    public long activeBlocks() {
        return slot < 0 ? 0 : figures.distinctBlocks(slot);
    }

    /** Requests booked here and not yet freed. */
    public int activeRequests() {
        return slot < 0 ? detachedRequests : figures.requests(slot);
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
        if (slot < 0) {
            return count;
        }
        boolean guessHeld = heldGuess > 0 && heldGuess <= count && holds(sequenceHashes[heldGuess - 1]);
        if (guessHeld && (heldGuess == count || !holds(sequenceHashes[heldGuess]))) {
            // Holding block guess-1 means holding every block before it (a chain): two lookups settle it.
            return count - heldGuess;
        }
        if (count == 0 || (!guessHeld && !holds(sequenceHashes[0]))) {
            // Most ranks share no prefix with a given request: one lookup settles them.
            return count;
        }
        int low = guessHeld ? heldGuess + 1 : 1;
        int high = count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (holds(sequenceHashes[mid])) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return count - low;
    }

    /**
     * Blocks of the request last matched by {@link ActiveSequences#matchBooked} not among this rank's active blocks:
     * an array read, the same count as {@link #newBlocks(long[], int)} for that request.
     */
    public int newBlocksOfMatched(int count) {
        return slot < 0 ? count : count - booked.held(slot);
    }

    void add(long[] sequenceHashes, int count, long tokens) {
        if (slot < 0) {
            detachedPrefillTokens += tokens;
            detachedRequests++;
            return;
        }
        int fresh = 0;
        for (int i = 0; i < count; i++) {
            if (booked.hold(sequenceHashes[i], slot)) {
                fresh++;
            }
        }
        figures.booked(slot, tokens, fresh);
    }

    void prefillDone(long tokens) {
        if (slot < 0) {
            detachedPrefillTokens -= tokens;
        } else {
            figures.prefillDone(slot, tokens);
        }
    }

    void free(long[] sequenceHashes, int count) {
        if (slot < 0) {
            detachedRequests--;
            return;
        }
        int released = 0;
        for (int i = 0; i < count; i++) {
            if (booked.release(sequenceHashes[i], slot)) {
                released++;
            }
        }
        figures.freed(slot, released);
    }

    /**
     * Leaves the shared index of booked blocks and the shared figures (the rank left): its blocks are released and
     * count 0 from now on; its prefill tokens and requests move into this handle, and later bookings and frees only
     * update those.
     */
    void detach() {
        if (slot < 0) {
            return;
        }
        detachedPrefillTokens = figures.prefillTokens(slot);
        detachedRequests = figures.requests(slot);
        booked.freeSlot(slot);
        slot = -1;
    }

    private boolean holds(long sequenceHash) {
        return booked.holds(sequenceHash, slot);
    }

    @Override
    public String toString() {
        return worker + " prefill=" + activePrefillTokens() + " blocks=" + activeBlocks() + " requests="
            + activeRequests();
    }
}
