package dev.sluice.transport.testing;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.transport.engine.telemetry.TelemetrySink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Keeps every load report and capacity a scraper gives, in order. Thread-safe. */
public final class RecordingTelemetrySink implements TelemetrySink {
    private final List<WorkerLoad> loads = new ArrayList<>();
    private final Map<WorkerWithDpRank, List<Long>> capacities = new LinkedHashMap<>();

    @Override
    public synchronized void onLoad(WorkerLoad load) {
        loads.add(load);
    }

    @Override
    public synchronized void onCapacity(WorkerWithDpRank rank, long totalKvBlocks) {
        capacities.computeIfAbsent(rank, r -> new ArrayList<>()).add(totalKvBlocks);
    }

    /** Every load reported so far, in order. */
    public synchronized List<WorkerLoad> loads() {
        return List.copyOf(loads);
    }

    /** Each rank's capacities reported so far, in order; ranks in the order first reported. */
    public synchronized Map<WorkerWithDpRank, List<Long>> capacities() {
        Map<WorkerWithDpRank, List<Long>> copy = new LinkedHashMap<>();
        capacities.forEach((rank, blocks) -> copy.put(rank, List.copyOf(blocks)));
        return copy;
    }

    /** Forgets what was recorded. */
    public synchronized void clear() {
        loads.clear();
        capacities.clear();
    }
}
