package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.api.RequestClassifierWorker;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads the host's worker snapshot when a decision needs capacity, and rebuilds the {@link CapacityView} only when
 * the snapshot changed (the host hands out the same list until a worker joins, leaves or changes its card).
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class CapacitySource implements Supplier<CapacityView> {
    private final RequestClassifierContext context;
    private List<RequestClassifierWorker> lastWorkers;
    private CapacityView lastView = CapacityView.EMPTY;

    CapacitySource(RequestClassifierContext context) {
        this.context = context;
    }

    @Override
    public CapacityView get() {
        List<RequestClassifierWorker> workers = context.workers();
        if (workers != lastWorkers) {
            lastView = CapacityView.of(workers, context.blockSize());
            lastWorkers = workers;
        }
        return lastView;
    }
}
