package dev.sluice.core.select;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Arrays;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * The router's booked load per worker rank (dynamo-mocker.md §7.3): each dispatched request is {@link #add}ed once
 * on its worker with its block sequence hashes and its prefill tokens (the uncached part of its prompt), is marked
 * {@link #prefillCompleted} when its first token arrives (its prefill tokens leave the estimate) and is
 * {@link #free}d when it completes or aborts (its blocks leave). Each call counts once per request key; repeats and
 * unknown keys are ignored and reported as {@code false}. A rank's blocks are refcounted, so a prefix shared by
 * several booked requests counts once.
 *
 * <p>Every rank's figures are kept in arrays indexed by its load's {@link ActiveLoad#slot}, so that a selection
 * reads them for every rank as a pass over arrays ({@link #activePrefillTokensAt}, {@link #activeBlocksAt},
 * {@link #newBlocksOfMatchedAt}) rather than visiting each rank's {@link ActiveLoad}.
 *
 * <p>Owned by the scheduler thread; not thread-safe. Booking records and their hash buffers are pooled, so a warm
 * instance allocates nothing per request.
 */
public final class ActiveSequences {
    private final Object2ObjectHashMap<WorkerWithDpRank, ActiveLoad> loads = new Object2ObjectHashMap<>();
    private final Long2ObjectHashMap<Booking> bookings = new Long2ObjectHashMap<>();
    private final BookedBlocks booked = new BookedBlocks();
    private final LoadFigures figures = new LoadFigures();
    private Booking[] pool = new Booking[16];
    private int pooled;

    /** One booked request. */
    private static final class Booking {
        ActiveLoad load;
        long[] hashes = new long[64];
        int count;
        long prefillTokens;
        boolean prefilling;
    }

    /**
     * Books request {@code requestKey} on {@code worker}: blocks {@code sequenceHashes[0 .. count)} (a chain from
     * the first block) and {@code prefillTokens} uncached prompt tokens. False (and nothing changes) when the key is
     * already booked.
     */
    public boolean add(long requestKey, WorkerWithDpRank worker, long[] sequenceHashes, int count, long prefillTokens) {
        if (bookings.containsKey(requestKey)) {
            return false;
        }
        return book(requestKey, loadOrCreate(worker), sequenceHashes, count, prefillTokens);
    }

    /**
     * As {@link #add(long, WorkerWithDpRank, long[], int, long)} onto a worker's load this table handed out
     * ({@link #loadOrCreate}, not since removed), without looking the worker up.
     */
    public boolean add(long requestKey, ActiveLoad load, long[] sequenceHashes, int count, long prefillTokens) {
        if (bookings.containsKey(requestKey)) {
            return false;
        }
        return book(requestKey, load, sequenceHashes, count, prefillTokens);
    }

    private boolean book(long requestKey, ActiveLoad load, long[] sequenceHashes, int count, long prefillTokens) {
        Booking booking = pooled > 0 ? pool[--pooled] : new Booking();
        if (booking.hashes.length < count) {
            booking.hashes = new long[Math.max(count, booking.hashes.length * 2)];
        }
        System.arraycopy(sequenceHashes, 0, booking.hashes, 0, count);
        booking.count = count;
        booking.prefillTokens = prefillTokens;
        booking.prefilling = true;
        booking.load = load;
        load.add(sequenceHashes, count, prefillTokens);
        bookings.put(requestKey, booking);
        return true;
    }

    /** As {@link #add(long, WorkerWithDpRank, long[], int, long)} over the whole array. */
    public boolean add(long requestKey, WorkerWithDpRank worker, long[] sequenceHashes, long prefillTokens) {
        return add(requestKey, worker, sequenceHashes, sequenceHashes.length, prefillTokens);
    }

    /** The first token of {@code requestKey} arrived: its prefill tokens leave the estimate. False if not pending. */
    public boolean prefillCompleted(long requestKey) {
        Booking booking = bookings.get(requestKey);
        if (booking == null || !booking.prefilling) {
            return false;
        }
        booking.load.prefillDone(booking.prefillTokens);
        booking.prefilling = false;
        return true;
    }

    /** {@code requestKey} completed or aborted: everything it booked is released. False if it was not booked. */
    public boolean free(long requestKey) {
        Booking booking = bookings.remove(requestKey);
        if (booking == null) {
            return false;
        }
        if (booking.prefilling) {
            booking.load.prefillDone(booking.prefillTokens);
        }
        booking.load.free(booking.hashes, booking.count);
        booking.load = null;
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pool.length * 2);
        }
        pool[pooled++] = booking;
        return true;
    }

    /**
     * Forgets {@code worker}'s estimate (it left the fleet). Requests still booked there keep their bookings, which
     * {@link #free} releases into the forgotten estimate; a rank that rejoins starts from zero.
     */
    public void removeWorker(WorkerWithDpRank worker) {
        ActiveLoad load = loads.remove(worker);
        if (load != null) {
            load.detach();
        }
    }

    /**
     * The load of {@code worker}, created empty if nothing was booked there yet: a router keeps it on its worker
     * record (until {@link #removeWorker}) and reads it without a lookup.
     */
    public ActiveLoad loadOrCreate(WorkerWithDpRank worker) {
        ActiveLoad load = loads.get(worker);
        if (load == null) {
            load = new ActiveLoad(worker, booked, figures);
            loads.put(worker, load);
        }
        return load;
    }

    /** The load of {@code worker}, or {@code null} when nothing was ever booked there. */
    public ActiveLoad load(WorkerWithDpRank worker) {
        return loads.get(worker);
    }

    /** Prefill tokens booked on {@code worker} and waiting for their first token. */
    public long activePrefillTokens(WorkerWithDpRank worker) {
        ActiveLoad load = loads.get(worker);
        return load == null ? 0 : load.activePrefillTokens();
    }

    /** Distinct blocks booked on {@code worker}. */
    public long activeBlocks(WorkerWithDpRank worker) {
        ActiveLoad load = loads.get(worker);
        return load == null ? 0 : load.activeBlocks();
    }

    /** Requests booked on {@code worker} and not yet freed. */
    public int activeRequests(WorkerWithDpRank worker) {
        ActiveLoad load = loads.get(worker);
        return load == null ? 0 : load.activeRequests();
    }

    /** Blocks of the request ({@code sequenceHashes[0 .. count)}, a chain) not booked on {@code worker}. */
    public int newBlocks(WorkerWithDpRank worker, long[] sequenceHashes, int count) {
        ActiveLoad load = loads.get(worker);
        return load == null ? count : load.newBlocks(sequenceHashes, count);
    }

    /**
     * Matches the request ({@code sequenceHashes[0 .. count)}, a chain) against the booked blocks of every rank at
     * once, in one walk over its blocks; then {@link #newBlocksOfMatchedAt} (by load slot) or
     * {@link ActiveLoad#newBlocksOfMatched} reads each rank's new blocks without a lookup. Valid until the next match
     * or the next booking change.
     */
    public void matchBooked(long[] sequenceHashes, int count) {
        booked.match(sequenceHashes, count);
    }

    /**
     * Prefill tokens waiting for their first token on the rank whose load has {@code slot} ({@link ActiveLoad#slot},
     * the load not removed): {@link ActiveLoad#activePrefillTokens} without visiting the load.
     */
    public long activePrefillTokensAt(int slot) {
        return figures.prefillTokens(slot);
    }

    /** Distinct blocks booked on the rank whose load has {@code slot} (the load not removed). */
    public long activeBlocksAt(int slot) {
        return figures.distinctBlocks(slot);
    }

    /**
     * Blocks of the request last {@link #matchBooked matched} not booked on the rank whose load has {@code slot} (the
     * load not removed): {@link ActiveLoad#newBlocksOfMatched} without visiting the load.
     */
    public int newBlocksOfMatchedAt(int slot, int count) {
        return count - booked.held(slot);
    }

    /** The shared index of booked blocks (for tests). */
    BookedBlocks booked() {
        return booked;
    }

    /** Requests booked and not yet freed, over all ranks. */
    public int size() {
        return bookings.size();
    }

    /** True when {@code requestKey} is booked. */
    public boolean contains(long requestKey) {
        return bookings.containsKey(requestKey);
    }
}
