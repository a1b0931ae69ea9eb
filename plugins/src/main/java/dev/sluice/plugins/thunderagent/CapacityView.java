package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.RequestClassifierWorker;
import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Capacity and liveness from the host's worker snapshot: every listed rank is live; a rank that publishes
 * {@code total_kv_blocks} has a capacity of {@code blocks x block_size} tokens. A live rank without a card keeps its
 * sessions but takes no capacity-checked placement. No capacity at all is a cold start: requests flow through.
 * Immutable.
 */
final class CapacityView {
    static final CapacityView EMPTY = new CapacityView(new TreeMap<>(), Set.of());

    private final Map<WorkerWithDpRank, Long> capacity;
    private final Set<WorkerWithDpRank> live;

    private CapacityView(TreeMap<WorkerWithDpRank, Long> capacity, Set<WorkerWithDpRank> live) {
        this.capacity = Collections.unmodifiableMap(capacity);
        this.live = Collections.unmodifiableSet(live);
    }

    static CapacityView of(List<RequestClassifierWorker> workers, int blockSize) {
        TreeMap<WorkerWithDpRank, Long> capacity = new TreeMap<>();
        Set<WorkerWithDpRank> live = new HashSet<>();
        for (RequestClassifierWorker worker : workers) {
            live.add(worker.worker());
            if (worker.totalKvBlocks().isPresent()) {
                capacity.put(worker.worker(), worker.totalKvBlocks().getAsLong() * blockSize);
            }
        }
        return new CapacityView(capacity, live);
    }

    /** Live ranks with a known capacity, in worker order, with their capacity in tokens. */
    Map<WorkerWithDpRank, Long> capacities() {
        return capacity;
    }

    boolean hasCapacity() {
        return !capacity.isEmpty();
    }

    boolean isLive(WorkerWithDpRank worker) {
        return worker != null && live.contains(worker);
    }

    boolean anyLive() {
        return !live.isEmpty();
    }

    /** The capacity of a rank in tokens, or -1 without a card. */
    long capacityOf(WorkerWithDpRank worker) {
        Long tokens = capacity.get(worker);
        return tokens == null ? -1 : tokens;
    }
}
