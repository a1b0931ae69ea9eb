package dev.sluice.core.scheduler;

import dev.sluice.core.api.RequestClassifierWorker;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.host.BookingObserver;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.queue.DispatchGate;
import dev.sluice.core.select.ActiveSequences;
import dev.sluice.core.select.KvIndex;
import dev.sluice.core.select.OverlapScores;
import dev.sluice.core.select.SelectionCandidates;
import dev.sluice.core.spi.WorkerSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.agrona.collections.Object2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registered worker ranks of one model router and everything placement needs: which prefixes each holds (the
 * KV index, fed by engines' events), the router's own load estimate (prefill tokens until the first response item,
 * blocks until the end), busy gating for the queues, and the worker selector. Eligible candidates are the
 * registered ranks (or the hard pin) that are not busy for the request's class; when all are busy (an exact lane,
 * or a class without queueing) all eligible ranks are offered. Other router replicas' bookings
 * ({@link RemoteBookings}) count in the load as the router's own; the {@link BookingObserver} hears the own ones.
 *
 * <p>Owned by the scheduler thread; not thread-safe, except {@link #snapshot()}.
 */
public final class WorkerTable implements DispatchGate {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerTable.class);

    private final Object2ObjectHashMap<WorkerWithDpRank, WorkerState> byId = new Object2ObjectHashMap<>();
    private final int blockSize;
    private final KvIndex index = new KvIndex();
    private final ActiveSequences active = new ActiveSequences();
    private final OverlapScores scores = new OverlapScores();
    private final SelectionCandidates candidates = new SelectionCandidates();
    private final WorkerSelector selector;
    private final RemoteBookings remote = new RemoteBookings(active);
    private final BookingObserver bookings;
    private long bookingObserverFailures;
    private WorkerState[] ordered = new WorkerState[0];
    /** Each worker's load slot in {@link #active}, by place in {@link #ordered}: its figures are read as arrays. */
    private int[] loadSlots = new int[0];
    /** Each worker's KV-index slot by place in {@link #ordered}. */
    private final KvSlotsByPlace kvSlots = new KvSlotsByPlace(index);
    /** The place in {@link #ordered} of each candidate of a selection that left busy ranks out. */
    private int[] rankOf = new int[0];
    private final BusyFor busyFor = new BusyFor();
    private volatile List<RequestClassifierWorker> snapshot = List.of();
    /** Bumped by every change that can move a cache estimate: a join, a leave, a KV event. */
    private long version;

    public WorkerTable(int blockSize, WorkerSelector selector) {
        this(blockSize, selector, BookingObserver.NONE);
    }

    public WorkerTable(int blockSize, WorkerSelector selector, BookingObserver bookings) {
        this.blockSize = blockSize;
        this.selector = selector;
        this.bookings = bookings;
    }

    /** Registers (or updates the settings of) a worker rank. */
    void join(WorkerWithDpRank id, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        WorkerState known = byId.get(id);
        if (known != null) {
            known.settings(maxNumBatchedTokens, totalKvBlocks);
        } else {
            byId.put(id, new WorkerState(id, maxNumBatchedTokens, totalKvBlocks, active.loadOrCreate(id)));
        }
        version++;
        rebuild();
    }

    /** Deregisters a worker rank and forgets its cache and load; returns false if unknown. */
    boolean leave(WorkerWithDpRank id) {
        if (byId.remove(id) == null) {
            return false;
        }
        index.removeWorker(id);
        active.removeWorker(id);
        version++;
        rebuild();
        return true;
    }

    /**
     * An engine's report of its own load. The part the router's own bookings on the rank do not explain, now, is the
     * rank's outside load until the next report: its KV blocks count in the selection cost, and requests waiting in
     * the engine beyond all the router booked there make the rank busy for queueing classes. The bookings keep
     * counting as they happen, so between two reports the router's own burst is seen at once and never twice.
     * Returns false for an unregistered rank (the report is dropped).
     */
    boolean report(WorkerLoad load) {
        WorkerState worker = byId.get(load.worker());
        if (worker == null) {
            return false;
        }
        worker.outsideBlocks = Math.max(0, load.usedKvBlocks() - worker.load.activeBlocks());
        worker.outsideWaiting = Math.max(0, load.waitingRequests() - (long) worker.load.activeRequests());
        return true;
    }

    /**
     * KV blocks in use on a rank now: the router's own bookings there (a shared prefix once) plus the outside blocks
     * of the engine's last report; empty for an unregistered rank. The classifier's {@code KvInUseView}.
     */
    public OptionalLong usedKvBlocks(WorkerWithDpRank id) {
        WorkerState worker = byId.get(id);
        return worker == null ? OptionalLong.empty()
            : OptionalLong.of(worker.load.activeBlocks() + worker.outsideBlocks);
    }

    /** An engine's KV event; events of unregistered ranks are kept (a rank may publish before it registers). */
    void apply(KvEvent event) {
        index.apply(event);
        version++;
    }

    int count() {
        return ordered.length;
    }

    long droppedKvEvents() {
        return index.droppedEvents();
    }

    /** The classifier context's view: an immutable list, safe to read from any thread. */
    public List<RequestClassifierWorker> snapshot() {
        return snapshot;
    }

    /**
     * Best cached prefix of the request over its eligible ranks, in tokens, at most its input. The request's prompt
     * and pin are fixed while it lives, so the estimate is kept on the request and only recomputed after the table
     * changed: classification and the enqueue that follows in the same turn share one index lookup.
     */
    long cachedTokens(LiveRequest request) {
        if (request.cachedEstimateVersion != version) {
            request.cachedEstimate = estimateCached(request);
            request.cachedEstimateVersion = version;
        }
        return request.cachedEstimate;
    }

    private long estimateCached(LiveRequest request) {
        long[] local = request.localBlockHashes();
        if (local.length == 0 || ordered.length == 0) {
            return 0;
        }
        index.findMatches(local, scores);
        WorkerWithDpRank pin = request.pinnedWorker();
        long blocks = pin != null ? scores.blocks(pin) : bestRegistered();
        return Math.min(request.inputTokens(), blocks * blockSize);
    }

    private int bestRegistered() {
        int best = 0;
        for (int i = 0; i < scores.matchedWorkers(); i++) {
            if (byId.containsKey(scores.matchedWorker(i))) {
                best = Math.max(best, scores.matchedBlocks(i));
            }
        }
        return best;
    }

    @Override
    public boolean sharedDispatchable(PolicyClassSpec spec) {
        if (ordered.length == 0 || !spec.queueingEnabled()) {
            return true;
        }
        for (WorkerState worker : ordered) {
            if (!busy(spec, worker)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank id) {
        WorkerState worker = byId.get(id);
        return worker != null && !busy(spec, worker);
    }

    private boolean busy(PolicyClassSpec spec, WorkerState worker) {
        return busy(spec, worker, worker.load.activePrefillTokens());
    }

    /** As {@link #busy(PolicyClassSpec, WorkerState)} with the rank's booked prefill tokens already read. */
    private static boolean busy(PolicyClassSpec spec, WorkerState worker, long activePrefillTokens) {
        // An engine that queues requests the router did not send is full whatever the router booked on it.
        return (worker.outsideWaiting > 0 && spec.queueingEnabled())
            || spec.isBusy(activePrefillTokens, worker.maxNumBatchedTokens);
    }

    /**
     * Chooses the rank for a dispatched request with the selector, or {@code null} when none is eligible. A
     * selector exception propagates to the caller, which fails that request only.
     */
    WorkerState select(LiveRequest request, PolicyClassSpec spec) {
        WorkerWithDpRank pin = request.pinnedWorker();
        long[] local = request.localBlockHashes();
        if (local.length > 0) {
            index.findMatches(local, scores);
        }
        int blocks = local.length;
        candidates.reset(request.inputTokens(), blocks, request.workerSelectionTarget(), pin);
        long[] sequence = request.sequenceBlockHashes();
        // No lookup per candidate and no load object visited: overlap by KV slot and booked blocks and load by load
        // slot, from the walks and the active sequences' arrays; settings and outside load from the record.
        int[] kvSlotsNow = blocks == 0 ? null : kvSlots.slots();
        WorkerState pinned = null;
        boolean filtered = false;
        if (pin != null) {
            // One candidate, which its own lookups settle. Busy or not, a pin is offered: it is the only choice.
            pinned = addPinned(pin, sequence, blocks, kvSlotsNow);
        } else {
            // One walk over the request's blocks finds every rank's booked run, then one pass over the ranks fills:
            // those not busy for a queueing class, else (none free, or no queueing) all of them.
            active.matchBooked(sequence, blocks);
            if (spec.queueingEnabled()) {
                busyFor.spec = spec;
                candidates.addRanks(ordered, kvSlotsNow, loadSlots, scores, active, busyFor, rankOf);
                filtered = candidates.candidateCount() > 0;
                if (!filtered) {
                    candidates.reset(request.inputTokens(), blocks, request.workerSelectionTarget(), null);
                }
            }
            if (!filtered) {
                candidates.addRanks(ordered, kvSlotsNow, loadSlots, scores, active);
            }
        }
        if (candidates.candidateCount() == 0) {
            return null;
        }
        int chosen = selector.select(candidates);
        if (chosen == WorkerSelector.NONE) {
            return null;
        }
        if (chosen < 0 || chosen >= candidates.candidateCount()) {
            throw new IllegalStateException("worker selector returned candidate " + chosen + " of "
                + candidates.candidateCount());
        }
        request.dispatchOverlapBlocks = candidates.overlapBlocks(chosen);
        if (pinned != null) {
            return pinned;
        }
        return ordered[filtered ? rankOf[chosen] : chosen];
    }

    /** Adds the pinned rank as the one candidate; its record, or {@code null} when it is not registered. */
    private WorkerState addPinned(WorkerWithDpRank pin, long[] sequence, int blocks, int[] kvSlotsNow) {
        WorkerState[] workers = ordered;
        for (int i = 0; i < workers.length; i++) {
            WorkerState worker = workers[i];
            if (pin.equals(worker.id)) {
                int loadSlot = loadSlots[i];
                int overlap = blocks == 0 ? 0 : scores.blocksAt(kvSlotsNow[i]);
                long booked = active.activeBlocksAt(loadSlot);
                candidates.add(worker.id, overlap, worker.load.newBlocks(sequence, blocks),
                    active.activePrefillTokensAt(loadSlot), booked + worker.outsideBlocks, worker.totalKvBlocks,
                    worker.maxNumBatchedTokens);
                return worker;
            }
        }
        return null;
    }

    /** The busy test of the class being placed, as {@link SelectionCandidates#addRanks} asks it of each rank. */
    private static final class BusyFor implements SelectionCandidates.RankFilter {
        private PolicyClassSpec spec;

        @Override
        public boolean excludes(SelectionCandidates.Rank rank, long activePrefillTokens) {
            return busy(spec, (WorkerState) rank, activePrefillTokens);
        }
    }

    /** Books a dispatched request: its uncached prompt tokens as prefill load and its blocks on the worker. */
    void book(LiveRequest request, WorkerState worker) {
        request.bookedWorker = worker;
        request.lastWorker = worker.id;
        long prefill = bookedPrefill(request);
        long[] sequence = request.sequenceBlockHashes();
        active.add(request.lifecycleId, worker.load, sequence, sequence.length, prefill);
        try {
            bookings.onBooked(request.lifecycleId, worker.id, sequence, sequence.length, prefill);
        } catch (RuntimeException e) {
            observerFailed(e);
        }
    }

    private long bookedPrefill(LiveRequest request) {
        return Math.max(0, request.inputTokens() - (long) request.dispatchOverlapBlocks * blockSize);
    }

    /**
     * True when releasing {@code victim}, dispatched and still in prefill, would leave its worker free for a request
     * of {@code spec} (preemption): no outside queue on the engine, and the prefill left below the class's threshold.
     */
    boolean freedBy(PolicyClassSpec spec, LiveRequest victim) {
        WorkerState worker = victim.bookedWorker;
        if (worker == null || (worker.outsideWaiting > 0 && spec.queueingEnabled())) {
            return false;
        }
        long left = active.activePrefillTokens(worker.id) - bookedPrefill(victim);
        return !spec.isBusy(left, worker.maxNumBatchedTokens);
    }

    /** The first response item arrived: the request's prefill leaves the estimate. */
    void prefillDone(LiveRequest request) {
        if (active.prefillCompleted(request.lifecycleId)) {
            try {
                bookings.onPrefillDone(request.lifecycleId);
            } catch (RuntimeException e) {
                observerFailed(e);
            }
        }
    }

    /** Releases whatever the request still holds; idempotent. */
    void release(LiveRequest request) {
        if (request.bookedWorker != null) {
            active.free(request.lifecycleId);
            request.bookedWorker = null;
            try {
                bookings.onReleased(request.lifecycleId);
            } catch (RuntimeException e) {
                observerFailed(e);
            }
        }
    }

    /** Books another replica's request on a registered rank; false (dropped) otherwise or when already booked. */
    boolean bookRemote(RemoteBooking booking) {
        boolean applied = byId.containsKey(booking.worker()) && remote.book(booking);
        try {
            bookings.onRemoteApplied(booking, applied);
        } catch (RuntimeException e) {
            observerFailed(e);
        }
        return applied;
    }

    /**
     * Another replica's request produced its first token ({@code released} false) or ended: the rank whose load
     * fell, or null when the booking is not held here.
     */
    WorkerWithDpRank unbookRemote(String replica, long key, boolean released) {
        return released ? remote.release(replica, key) : remote.prefillDone(replica, key);
    }

    /** Releases every booking of another replica; false when it held none. */
    boolean forgetReplica(String replica) {
        return remote.forget(replica);
    }

    /** Other replicas' bookings held now. */
    int remoteBookings() {
        return remote.size();
    }

    private void observerFailed(RuntimeException e) {
        if (bookingObserverFailures++ % 10_000 == 0) {
            LOG.error("The booking observer failed ({} so far); the router serves on", bookingObserverFailures, e);
        }
    }

    private void rebuild() {
        List<WorkerState> workers = new ArrayList<>(byId.values());
        workers.sort((a, b) -> a.id.compareTo(b.id));
        ordered = workers.toArray(new WorkerState[0]);
        loadSlots = new int[ordered.length];
        kvSlots.places(ordered);
        for (int i = 0; i < ordered.length; i++) {
            // Fixed while the worker is registered: its load is removed only when it leaves.
            loadSlots[i] = ordered[i].load.slot();
        }
        rankOf = new int[ordered.length];
        List<RequestClassifierWorker> view = new ArrayList<>(ordered.length);
        for (WorkerState worker : ordered) {
            view.add(new RequestClassifierWorker(worker.id, worker.advertisedKvBlocks()));
        }
        snapshot = List.copyOf(view);
    }
}
