package dev.sluice.core.scheduler;

import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * The counters of one model router, as Agrona counters: each is written by one thread with release semantics (the
 * scheduler thread, or the watchdog's for overruns) and read by any thread with acquire semantics, so the HTTP threads
 * that serve {@code /health} and {@code /metrics} see whole, current values without a lock. Totals count up where their
 * events happen; the gauges (live, queued, deferrals running, parked now) are published as they change. The duty-cycle
 * error counter is the one the agent runner (or invoker) is given.
 */
public final class RouterCounters {
    /** One counter of the router; totals count events, gauges hold a current level. */
    public enum Counter {
        ARRIVED, ADMITTED, DISPATCHED, COMPLETED, ABORTED, REJECTED, DEFERRED, PARKED, EXPIRED, RETRIED,
        QUEUE_REJECTED, CLASSIFIER_FAILURES, EVENT_FAILURES, LISTENER_FAILURES, SELECTOR_FAILURES, STALE_RESULTS,
        CLASSIFIER_TIMEOUTS, DUTY_CYCLE_OVERRUNS,
        /** Dispatched requests preempted for higher-priority work (each also counts as aborted). */
        PREEMPTED,
        /** Duty cycles or single messages whose handling threw: each failed its request (if any) and was counted. */
        SCHEDULER_ERRORS,
        /** Gauge: live lifecycles. */
        LIVE,
        /** Gauge: requests waiting in policy queues. */
        QUEUED,
        /** Gauge: continuations running. */
        DEFERRALS_RUNNING,
        /** Gauge: requests parked, waiting for a wake-up or a deadline. */
        PARKED_NOW,
        /** Gauge: other router replicas' bookings counted in the workers' load. */
        REMOTE_BOOKINGS
    }

    private static final Counter[] ALL = Counter.values();

    private final AtomicCounter[] counters = new AtomicCounter[ALL.length];

    /** Allocates this router's counters, labelled {@code <model>: <counter>}. */
    public RouterCounters(String model) {
        ByteBuffer values = BufferUtil.allocateDirectAligned(ALL.length * CountersReader.COUNTER_LENGTH,
            CountersReader.COUNTER_LENGTH);
        ByteBuffer metadata = BufferUtil.allocateDirectAligned(ALL.length * CountersReader.METADATA_LENGTH,
            CountersReader.COUNTER_LENGTH);
        CountersManager manager = new CountersManager(new UnsafeBuffer(metadata), new UnsafeBuffer(values));
        for (Counter counter : ALL) {
            counters[counter.ordinal()] = manager.newCounter(model + ": " + counter.name().toLowerCase());
        }
    }

    /** Counts one event; owner thread only. */
    void increment(Counter counter) {
        counters[counter.ordinal()].incrementRelease();
    }

    /** Publishes a gauge's level; owner thread only. */
    void set(Counter counter, long value) {
        counters[counter.ordinal()].setRelease(value);
    }

    /** The counter's value (acquire); any thread. */
    public long get(Counter counter) {
        return counters[counter.ordinal()].getAcquire();
    }

    /** The counter itself, for a writer that is not the scheduler (the agent runner, the watchdog). */
    public AtomicCounter counter(Counter counter) {
        return counters[counter.ordinal()];
    }
}
