package dev.sluice.core.scheduler;

import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.queue.PolicyQueues;
import java.util.function.Supplier;
import org.agrona.concurrent.NanoClock;

/**
 * Tells the observer, once a second, each tenant-fair class's active tenants and the service shares of its
 * {@value #TOP} most served tenants ({@link SchedulerObserver#onTenantShares}): the metrics' view of tenant fairness,
 * with no tenant names. A periodic task of the scheduler thread, reading the queues in force (a policy reload
 * replaces them). Registered when the starting profile has a tenant-fair class.
 * Owned by the scheduler thread; not thread-safe.
 */
final class TenantSharesTask implements Runnable {
    /** How many of the most served tenants' shares are reported. */
    static final int TOP = 3;
    private static final long INTERVAL_NS = 1_000_000_000L;

    private final Supplier<PolicyQueues> current;
    private final SchedulerObserver observer;
    private final NanoClock clock;
    private final double[] shares = new double[TOP];

    private TenantSharesTask(Supplier<PolicyQueues> current, SchedulerObserver observer, NanoClock clock) {
        this.current = current;
        this.observer = observer;
        this.clock = clock;
    }

    /** Registers the task if the starting profile has a tenant-fair class (a reload that adds one is not seen). */
    static void registerIfFair(Supplier<PolicyQueues> current, SchedulerObserver observer, PeriodicTasks periodic,
                               NanoClock clock) {
        PolicyQueues queues = current.get();
        for (int c = 0; c < queues.profile().classes().size(); c++) {
            if (queues.tenantFair(c)) {
                periodic.every(INTERVAL_NS, new TenantSharesTask(current, observer, clock));
                return;
            }
        }
    }

    @Override
    public void run() {
        long now = clock.nanoTime();
        PolicyQueues queues = current.get();
        for (int c = 0; c < queues.profile().classes().size(); c++) {
            if (queues.tenantFair(c)) {
                queues.topTenantShares(c, shares);
                observer.onTenantShares(now, c, queues.activeTenants(c), shares);
            }
        }
    }
}
