package dev.sluice.core.audit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The figures sluice reports per policy class, with one definition each: {@code journal stats} computes them from a
 * journal ({@link Lifecycle#facts}), the demo's summary and HTML report from the router's callbacks as they happen;
 * both add {@link Facts} here, so the two agree on the same run. The definitions ({@link #DEFINITIONS}) are printed
 * under both tables:
 *
 * <ul>
 *   <li><b>class</b>: the policy class a request was last queued in or turned away from by its queue (a queue
 *       limit, an expired deadline); {@value #NO_CLASS} when it ended before it reached one (refused at arrival,
 *       rejected by the classifier, no workers).</li>
 *   <li><b>arrived</b>: requests the router saw, refused ones included.</li>
 *   <li><b>queued</b>: joined its class's queue at least once; <b>admitted</b>: dispatched to a worker at least once
 *       (a request queued and then rejected for its deadline was queued, never admitted).</li>
 *   <li><b>deferred</b>, <b>parked</b>: the classifier deferred or parked it at least once.</li>
 *   <li><b>completed</b>, <b>rejected</b> (an error answer before dispatch, refusals at arrival included),
 *       <b>aborted</b> (the client went away, or dispatch or streaming failed), <b>open</b> (no end recorded):
 *       exactly one per request.</li>
 *   <li><b>queue wait</b>: first enqueue to first dispatch, on the router's clock, for admitted requests.</li>
 *   <li><b>TTFT</b>: ingress to the first response item on the router's clock (the first token of a stream, the
 *       first item the engine produced for a non-streaming call), for requests that got one.</li>
 *   <li><b>rejections</b>: by the error's reason and the HTTP status the client was answered.</li>
 * </ul>
 * Cold path; not thread-safe.
 */
public final class RequestFigures {
    /** The class of requests that ended before they reached a policy class. */
    public static final String NO_CLASS = "(no class)";

    /** The definitions, one line each, as printed under the tables. */
    public static final List<String> DEFINITIONS = List.of(
        "class: the one a request was last queued in or turned away from by its queue, else " + NO_CLASS,
        "arrived: seen by the router (refused included); queued: joined its class's queue",
        "admitted: dispatched to a worker; deferred, parked: by the classifier, at least once",
        "rejected: an error answer before dispatch (refused included)",
        "aborted: the client left, or dispatch or streaming failed",
        "queue wait: first enqueue to first dispatch; TTFT: ingress to the first response item",
        "  (streamed or not); both on the router's clock");

    /** How a request ended. */
    public enum Outcome {
        COMPLETED, REJECTED, ABORTED, OPEN;

        /** The lower-case word the tools print. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One request as the journal or the router's callbacks saw it.
     *
     * @param policyClass the class (as defined above), {@link #NO_CLASS} when none.
     * @param queueWaitNs first enqueue to first dispatch, or -1.
     * @param ttftNs      ingress to the first response item, or -1.
     * @param reason      the rejection's reason, or {@code null} when not rejected.
     * @param status      the rejection's HTTP status, or 0.
     */
    public record Facts(String policyClass, Outcome outcome, boolean queued, boolean admitted, boolean deferred,
                        boolean parked, long queueWaitNs, long ttftNs, String reason, int status) {
    }

    /** One class's figures; histograms in microseconds. */
    public static final class ClassFigures {
        private final Histogram queueWaitUs = histogram();
        private final Histogram ttftUs = histogram();
        private final Map<String, Long> rejections = new TreeMap<>();
        private final long[] outcomes = new long[Outcome.values().length];
        private long arrived;
        private long queued;
        private long admitted;
        private long deferred;
        private long parked;

        ClassFigures() {
        }

        void add(Facts facts) {
            arrived++;
            queued += facts.queued() ? 1 : 0;
            admitted += facts.admitted() ? 1 : 0;
            deferred += facts.deferred() ? 1 : 0;
            parked += facts.parked() ? 1 : 0;
            outcomes[facts.outcome().ordinal()]++;
            if (facts.outcome() == Outcome.REJECTED) {
                rejections.merge(reasonWithStatus(facts.reason(), facts.status()), 1L, Long::sum);
            }
            record(queueWaitUs, facts.queueWaitNs());
            record(ttftUs, facts.ttftNs());
        }

        void addInto(ClassFigures total) {
            total.arrived += arrived;
            total.queued += queued;
            total.admitted += admitted;
            total.deferred += deferred;
            total.parked += parked;
            for (int i = 0; i < outcomes.length; i++) {
                total.outcomes[i] += outcomes[i];
            }
            rejections.forEach((reason, count) -> total.rejections.merge(reason, count, Long::sum));
            total.queueWaitUs.add(queueWaitUs);
            total.ttftUs.add(ttftUs);
        }

        public long arrived() {
            return arrived;
        }

        public long queued() {
            return queued;
        }

        public long admitted() {
            return admitted;
        }

        public long deferred() {
            return deferred;
        }

        public long parked() {
            return parked;
        }

        public long count(Outcome outcome) {
            return outcomes[outcome.ordinal()];
        }

        /** Rejections by {@code reason (status)}, sorted. */
        public Map<String, Long> rejections() {
            return rejections;
        }

        /** Queue wait in microseconds. */
        public Histogram queueWaitUs() {
            return queueWaitUs;
        }

        /** TTFT in microseconds. */
        public Histogram ttftUs() {
            return ttftUs;
        }
    }

    private final Map<String, ClassFigures> byClass = new LinkedHashMap<>();

    /** Empty; classes appear in the order of {@link #declare} and then of their first request. */
    public RequestFigures() {
    }

    /** Makes {@code name} a row (in this order) even if no request reaches it. */
    public RequestFigures declare(String name) {
        byClass.computeIfAbsent(name, n -> new ClassFigures());
        return this;
    }

    public RequestFigures add(Facts facts) {
        byClass.computeIfAbsent(facts.policyClass(), n -> new ClassFigures()).add(facts);
        return this;
    }

    /** Per class, in order; declared classes no request reached are included. */
    public Map<String, ClassFigures> byClass() {
        return byClass;
    }

    /** The classes some request reached, in order. */
    public Map<String, ClassFigures> reached() {
        Map<String, ClassFigures> reached = new LinkedHashMap<>();
        byClass.forEach((name, figures) -> {
            if (figures.arrived > 0) {
                reached.put(name, figures);
            }
        });
        return reached;
    }

    /** Every class added up. */
    public ClassFigures total() {
        ClassFigures total = new ClassFigures();
        byClass.values().forEach(figures -> figures.addInto(total));
        return total;
    }

    /** {@code reason (status)} to class to count, sorted by reason, classes in order. */
    public Map<String, Map<String, Long>> rejectionsByReason() {
        Map<String, Map<String, Long>> reasons = new TreeMap<>();
        byClass.forEach((name, figures) -> figures.rejections.forEach((reason, count) ->
            reasons.computeIfAbsent(reason, r -> new LinkedHashMap<>()).put(name, count)));
        return reasons;
    }

    /** How a rejection is labelled: {@code queue_rejected (529)}. */
    public static String reasonWithStatus(String reason, int status) {
        return reason + " (" + status + ")";
    }

    /** A microsecond percentile in milliseconds with one decimal, or {@code -} when nothing was recorded. */
    public static String ms(Histogram us, double percentile) {
        return us.getTotalCount() == 0 ? "-" : String.format("%.1f", us.getValueAtPercentile(percentile) / 1000.0);
    }

    /** {@code p50/p99 ms}, or {@code -}. */
    public static String percentiles(Histogram us) {
        return us.getTotalCount() == 0 ? "-" : ms(us, 50) + "/" + ms(us, 99) + " ms";
    }

    static Histogram histogram() {
        return new Histogram(3_600_000_000L, 3);
    }

    private static void record(Histogram us, long ns) {
        if (ns >= 0) {
            us.recordValue(Math.min(ns / 1000, us.getHighestTrackableValue()));
        }
    }
}
