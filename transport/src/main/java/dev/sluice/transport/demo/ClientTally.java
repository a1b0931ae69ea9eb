package dev.sluice.transport.demo;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the demo's clients saw, one outcome per request id, plus live counters for the progress line. Written by
 * the clients' virtual threads, read by the progress monitor and, after the run, by the summary. Thread-safe.
 */
final class ClientTally {
    /** How a call ended for its client. */
    enum Kind { COMPLETED, REJECTED, LEFT, FAILED }

    /**
     * One call's end as the client saw it.
     *
     * @param status HTTP status (0 when the connection failed).
     * @param reason the error's {@code code} for a rejection, the failure's message for a failure, else empty.
     * @param ttftNs send to first SSE token (streaming) or to the whole response (plain), or -1 when none came.
     */
    record Outcome(Kind kind, int status, String reason, long ttftNs) {
    }

    final AtomicLong sent = new AtomicLong();
    final AtomicLong inFlight = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong left = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    private final Map<String, Outcome> outcomes = new ConcurrentHashMap<>();

    void onSent() {
        sent.incrementAndGet();
        inFlight.incrementAndGet();
    }

    /** Records the call's end; a second end for the same id is counted as a duplicate, never overwritten. */
    void onEnded(String requestId, Outcome outcome) {
        if (outcomes.putIfAbsent(requestId, outcome) != null) {
            duplicates.incrementAndGet();
            return;
        }
        inFlight.decrementAndGet();
        switch (outcome.kind()) {
            case COMPLETED -> completed.incrementAndGet();
            case REJECTED -> rejected.incrementAndGet();
            case LEFT -> left.incrementAndGet();
            case FAILED -> failed.incrementAndGet();
        }
    }

    /** The outcome of {@code requestId}, or {@code null} while it runs. */
    Outcome outcome(String requestId) {
        return outcomes.get(requestId);
    }

    /** Each distinct reason a call failed with, as {@code "N x reason"}, most frequent first. */
    List<String> failureReasons() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Outcome outcome : outcomes.values()) {
            if (outcome.kind() == Kind.FAILED) {
                counts.merge(outcome.reason(), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
            .map(e -> e.getValue() + " x " + e.getKey()).toList();
    }

    long ended() {
        return completed.get() + rejected.get() + left.get() + failed.get();
    }
}
