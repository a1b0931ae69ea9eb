package dev.sluice.core.router;

import dev.sluice.core.api.RequestClassifierWorker;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.queue.DispatchGate;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * The registered worker ranks of one model router, their booked load, busy gating and placement. Placement is
 * least-loaded (booked prefill tokens, then booked requests, then worker order) with hard pins and soft targets
 * honoured; KV-aware selection replaces the cost function without changing this seam.
 *
 * <p>Owned by the scheduler thread; not thread-safe, except {@link #snapshot()}.
 */
final class WorkerTable implements DispatchGate {
    private final Object2ObjectHashMap<WorkerWithDpRank, WorkerState> byId = new Object2ObjectHashMap<>();
    private WorkerState[] ordered = new WorkerState[0];
    private volatile List<RequestClassifierWorker> snapshot = List.of();

    /** Registers (or re-registers with new settings) a worker rank. */
    void join(WorkerWithDpRank id, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        WorkerState known = byId.get(id);
        if (known != null) {
            // Bookings running on it point at this object: update in place so their releases still count.
            known.maxNumBatchedTokens = maxNumBatchedTokens;
            known.totalKvBlocks = totalKvBlocks;
        } else {
            byId.put(id, new WorkerState(id, maxNumBatchedTokens, totalKvBlocks));
        }
        rebuild();
    }

    /** Deregisters a worker rank; its running bookings are released as they end. Returns false if unknown. */
    boolean leave(WorkerWithDpRank id) {
        WorkerState state = byId.remove(id);
        if (state == null) {
            return false;
        }
        state.registered = false;
        rebuild();
        return true;
    }

    int count() {
        return ordered.length;
    }

    WorkerState get(WorkerWithDpRank id) {
        return byId.get(id);
    }

    /** The classifier context's view: a fresh immutable list, safe to read from any thread. */
    List<RequestClassifierWorker> snapshot() {
        return snapshot;
    }

    @Override
    public boolean sharedDispatchable(PolicyClassSpec spec) {
        if (ordered.length == 0 || !spec.queueingEnabled()) {
            return true;
        }
        for (WorkerState worker : ordered) {
            if (!spec.isBusy(worker.activePrefillTokens, worker.maxNumBatchedTokens)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean workerDispatchable(PolicyClassSpec spec, WorkerWithDpRank id) {
        WorkerState worker = byId.get(id);
        return worker != null && !spec.isBusy(worker.activePrefillTokens, worker.maxNumBatchedTokens);
    }

    /**
     * Chooses the worker for a dispatched request, or {@code null} when none is registered (or its pin is gone).
     */
    WorkerState select(LiveRequest request, PolicyClassSpec spec) {
        WorkerWithDpRank pin = request.pinnedWorker();
        if (pin != null) {
            return byId.get(pin);
        }
        WorkerWithDpRank target = request.workerSelectionTarget();
        if (target != null) {
            WorkerState preferred = byId.get(target);
            if (preferred != null && !spec.isBusy(preferred.activePrefillTokens, preferred.maxNumBatchedTokens)) {
                return preferred;
            }
        }
        WorkerState best = null;
        for (WorkerState worker : ordered) {
            if (best == null || worker.activePrefillTokens < best.activePrefillTokens
                || (worker.activePrefillTokens == best.activePrefillTokens
                && worker.activeRequests < best.activeRequests)) {
                best = worker;
            }
        }
        return best;
    }

    /** Books a dispatched request's prefill and slot on a worker. */
    static void book(LiveRequest request, WorkerState worker) {
        request.bookedWorker = worker;
        request.lastWorker = worker.id;
        request.bookedPrefillTokens = request.uncachedTokens();
        worker.activePrefillTokens += request.bookedPrefillTokens;
        worker.activeRequests++;
    }

    /** The first response item arrived: the request's prefill is done. */
    static void prefillDone(LiveRequest request) {
        WorkerState worker = request.bookedWorker;
        if (worker != null) {
            worker.activePrefillTokens -= request.bookedPrefillTokens;
            request.bookedPrefillTokens = 0;
        }
    }

    /** Releases whatever the request still holds on its worker; idempotent. */
    static void release(LiveRequest request) {
        WorkerState worker = request.bookedWorker;
        if (worker != null) {
            worker.activePrefillTokens -= request.bookedPrefillTokens;
            worker.activeRequests--;
            request.bookedPrefillTokens = 0;
            request.bookedWorker = null;
        }
    }

    private void rebuild() {
        List<WorkerState> workers = new ArrayList<>(byId.values());
        workers.sort((a, b) -> a.id.compareTo(b.id));
        ordered = workers.toArray(new WorkerState[0]);
        List<RequestClassifierWorker> view = new ArrayList<>(ordered.length);
        for (WorkerState worker : ordered) {
            view.add(new RequestClassifierWorker(worker.id, worker.totalKvBlocks));
        }
        snapshot = List.copyOf(view);
    }
}
