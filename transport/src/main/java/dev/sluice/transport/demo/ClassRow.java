package dev.sluice.transport.demo;

import dev.sluice.core.audit.RequestFigures;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One policy class's row of the HTTP demo's tables: the router's {@link RequestFigures} of the class (the figures
 * {@code journal stats} prints for the same run), and what only the clients know, joined by request id: how many
 * calls were sent to it and how many failed on the client's side. Built on one thread after the run; not
 * thread-safe.
 */
final class ClassRow {
    final String name;
    /** The router's figures of the class. */
    final RequestFigures.ClassFigures router;
    long sent;
    long failed;
    /** Calls that failed on the client's side (connection, timeout, stream cut), by what the client saw. */
    final Map<String, Long> failures = new TreeMap<>();
    /** Rejections the clients heard from outside the router (only calls that never reached it), by reason. */
    final Map<String, Long> unroutedRejections = new TreeMap<>();

    ClassRow(String name, RequestFigures.ClassFigures router) {
        this.name = name;
        this.router = router;
    }

    static Histogram histogram() {
        return new Histogram(3_600_000L, 3);
    }

    long count(RequestFigures.Outcome outcome) {
        return router.count(outcome);
    }

    /** Rejected by the router, or (calls that never reached it) answered with an error on the way. */
    long rejected() {
        long sum = router.count(RequestFigures.Outcome.REJECTED);
        for (long count : unroutedRejections.values()) {
            sum += count;
        }
        return sum;
    }

    void addClientSideInto(ClassRow total) {
        total.sent += sent;
        total.failed += failed;
        failures.forEach((reason, count) -> total.failures.merge(reason, count, Long::sum));
        unroutedRejections.forEach((reason, count) -> total.unroutedRejections.merge(reason, count, Long::sum));
    }
}
