package dev.sluice.transport.demo;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One policy class's share of the run: counts from the clients and the router joined by request id, TTFT measured
 * by the clients and queue wait from the router's metrics, both in milliseconds. Built on one thread after the
 * run; not thread-safe.
 */
final class ClassRow {
    final String name;
    long sent;
    long enqueued;
    long deferred;
    long parked;
    long completed;
    long left;
    long failed;
    /** Rejections by {@code reason (status)}. */
    final Map<String, Long> rejections = new TreeMap<>();
    /** Calls that failed on the client's side (connection, timeout, stream cut), by what the client saw. */
    final Map<String, Long> failures = new TreeMap<>();
    final Histogram ttftMs = histogram();
    final Histogram queueWaitMs = histogram();

    ClassRow(String name) {
        this.name = name;
    }

    static Histogram histogram() {
        return new Histogram(3_600_000L, 3);
    }

    long rejected() {
        long sum = 0;
        for (long count : rejections.values()) {
            sum += count;
        }
        return sum;
    }

    void reject(String reason, int status) {
        rejections.merge(reason + " (" + status + ")", 1L, Long::sum);
    }

    /** Adds a microsecond histogram (the router's) in milliseconds. */
    void addQueueWaitMicros(Histogram micros) {
        for (var value : micros.recordedValues()) {
            queueWaitMs.recordValueWithCount(value.getValueIteratedTo() / 1_000, value.getCountAtValueIteratedTo());
        }
    }

    void addInto(ClassRow total) {
        total.sent += sent;
        total.enqueued += enqueued;
        total.deferred += deferred;
        total.parked += parked;
        total.completed += completed;
        total.left += left;
        total.failed += failed;
        rejections.forEach((reason, count) -> total.rejections.merge(reason, count, Long::sum));
        failures.forEach((reason, count) -> total.failures.merge(reason, count, Long::sum));
        total.ttftMs.add(ttftMs);
        total.queueWaitMs.add(queueWaitMs);
    }
}
