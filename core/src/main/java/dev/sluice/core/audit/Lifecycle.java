package dev.sluice.core.audit;

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

    /** The policy class it was (last) enqueued in, or {@code null}. */
    public String policyClass() {
        String name = null;
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.Enqueued e) {
                name = e.policyClass();
            }
        }
        return name;
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
