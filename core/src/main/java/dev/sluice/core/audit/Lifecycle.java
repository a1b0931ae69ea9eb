package dev.sluice.core.audit;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.List;

/** One request lifecycle's records, in journal order, with the facts the tools ask of it. Cold path. */
public final class Lifecycle {
    private final long id;
    private final List<JournalRecord> records = new ArrayList<>();

    Lifecycle(long id) {
        this.id = id;
    }

    void add(JournalRecord record) {
        records.add(record);
    }

    public long id() {
        return id;
    }

    public List<JournalRecord> records() {
        return records;
    }

    /** The arrival (or refusal) fields, or {@code null} when the arrival is not in the journal. */
    public JournalRecord.Request request() {
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Arrived a) {
                return a.request();
            }
            if (record instanceof JournalRecord.Refused r) {
                return r.request();
            }
        }
        return null;
    }

    public String requestId() {
        JournalRecord.Request request = request();
        return request == null ? "(lifecycle " + id + ")" : request.requestId();
    }

    /** The first record of this type, or {@code null}. */
    public <T extends JournalRecord> T first(Class<T> type) {
        for (JournalRecord record : records) {
            if (type.isInstance(record)) {
                return type.cast(record);
            }
        }
        return null;
    }

    /** The terminal records: rejected, refused, completed, aborted (exactly one in a well-formed lifecycle). */
    public List<JournalRecord> terminals() {
        List<JournalRecord> terminals = new ArrayList<>();
        for (JournalRecord record : records) {
            if (isTerminal(record)) {
                terminals.add(record);
            }
        }
        return terminals;
    }

    static boolean isTerminal(JournalRecord record) {
        return record instanceof JournalRecord.Rejected || record instanceof JournalRecord.Refused
            || record instanceof JournalRecord.Completed || record instanceof JournalRecord.Aborted;
    }

    /**
     * The policy class it was last queued in or turned away from by its queue (a queue limit, an expired deadline),
     * or {@code null} when it ended before it reached one. Names of classes no request was enqueued in come from the
     * run's recorded policy ({@link JournalRun#className}).
     */
    public String policyClass(JournalRun run) {
        String name = null;
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Enqueued e) {
                name = e.policyClass();
            } else if (record instanceof JournalRecord.Rejected r && r.classIndex() >= 0) {
                name = run.className(r.classIndex(), r.timeNs());
            }
        }
        return name;
    }

    /** This lifecycle's figures, as {@link RequestFigures} defines them. */
    public RequestFigures.Facts facts(JournalRun run) {
        String name = policyClass(run);
        boolean deferred = false;
        boolean parked = false;
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Classified c) {
                deferred |= c.decision() == Classification.Kind.DEFER;
                parked |= c.decision() == Classification.Kind.PARK;
            }
        }
        JournalRecord.Error error = error();
        List<JournalRecord> ends = terminals();
        RequestFigures.Outcome outcome = ends.isEmpty() ? RequestFigures.Outcome.OPEN : switch (ends.get(0)) {
            case JournalRecord.Completed c -> RequestFigures.Outcome.COMPLETED;
            case JournalRecord.Rejected r -> RequestFigures.Outcome.REJECTED;
            case JournalRecord.Refused r -> RequestFigures.Outcome.REJECTED;
            default -> RequestFigures.Outcome.ABORTED;
        };
        return new RequestFigures.Facts(name == null ? RequestFigures.NO_CLASS : name, outcome,
            first(JournalRecord.Enqueued.class) != null, first(JournalRecord.Dispatched.class) != null, deferred,
            parked, queueWaitNs(), ttftNs(), error == null ? null : error.reason(),
            error == null ? 0 : error.httpStatus());
    }

    /** The error of its rejection or refusal, or {@code null}. */
    public JournalRecord.Error error() {
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Rejected r) {
                return r.error();
            }
            if (record instanceof JournalRecord.Refused r) {
                return r.error();
            }
        }
        return null;
    }

    /** Nanoseconds from its (first) enqueue to its first dispatch, or -1. */
    public long queueWaitNs() {
        JournalRecord.Enqueued enqueued = first(JournalRecord.Enqueued.class);
        JournalRecord.Dispatched dispatched = first(JournalRecord.Dispatched.class);
        return enqueued == null || dispatched == null ? -1 : dispatched.timeNs() - enqueued.timeNs();
    }

    /** Nanoseconds from ingress to the first response item, or -1. */
    public long ttftNs() {
        JournalRecord.Request request = request();
        JournalRecord.Responding responding = first(JournalRecord.Responding.class);
        return request == null || responding == null ? -1 : responding.timeNs() - request.ingressAt();
    }

    /** A one-word outcome: completed, rejected, refused, aborted, or open (no terminal record). */
    public String outcome() {
        List<JournalRecord> terminals = terminals();
        if (terminals.isEmpty()) {
            return "open";
        }
        return switch (terminals.get(0)) {
            case JournalRecord.Completed c -> "completed";
            case JournalRecord.Rejected r -> "rejected";
            case JournalRecord.Refused r -> "refused";
            default -> "aborted";
        };
    }

    static boolean hasDeadline(long dueAt) {
        return dueAt != ClassifyRequest.NO_DEADLINE;
    }
}
