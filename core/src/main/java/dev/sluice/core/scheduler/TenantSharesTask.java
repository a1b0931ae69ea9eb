package dev.sluice.core.scheduler;

import dev.sluice.core.host.SchedulerObserver;
import dev.sluice.core.queue.PolicyQueues;
import org.agrona.concurrent.NanoClock;

/**
 * Tells the observer, once a second, each tenant-fair class's active tenants and the service shares of its
 * {@value #TOP} most served tenants ({@link SchedulerObserver#onTenantShares}): the metrics' view of tenant fairness,
 * with no tenant names. Registered only when some class is tenant-fair; a periodic task of the scheduler thread.
 * Owned by the scheduler thread; not thread-safe.
 */
final class TenantSharesTask implements Runnable {
    /** How many of the most served tenants' shares are reported. */
    static final int TOP = 3;
    private static final long INTERVAL_NS = 1_000_000_000L;

    private final PolicyQueues queues;
    private final SchedulerObserver observer;
    private final NanoClock clock;
    private final double[] shares = new double[TOP];

    private TenantSharesTask(PolicyQueues queues, SchedulerObserver observer, NanoClock clock) {
        this.queues = queues;
        this.observer = observer;
        this.clock = clock;
    }

    static void registerIfFair(PolicyQueues queues, SchedulerObserver observer, PeriodicTasks periodic,
                               NanoClock clock) {
        for (int c = 0; c < queues.profile().classes().size(); c++) {
            if (queues.tenantFair(c)) {
                periodic.every(INTERVAL_NS, new TenantSharesTask(queues, observer, clock));
                return;
            }
        }
    }

    @Override
    public void run() {
        long now = clock.nanoTime();
        for (int c = 0; c < queues.profile().classes().size(); c++) {
            if (queues.tenantFair(c)) {
                queues.topTenantShares(c, shares);
                observer.onTenantShares(now, c, queues.activeTenants(c), shares);
            }
        }
    }
}
