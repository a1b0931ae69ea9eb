package dev.sluice.core.replay;

import java.util.List;

/**
 * One way the replay departs from the recording: in a request's records ({@code requestId} and its recorded
 * {@code lifecycleId}), the worker records ({@code lifecycleId} -1), or the global order of dispatches
 * ({@code lifecycleId} -2). For a record of the same type on both sides, {@code fields} names each field that
 * differs with both values; otherwise both records are given whole ({@code (nothing)} where one side has none).
 * Immutable.
 *
 * @param record       the 1-based position of the first differing record in the lifecycle's (or worker) records, or
 *                     of the first differing dispatch.
 * @param recordType   the recorded record's type, else the replayed one's.
 * @param sinceStartNs when the record was taken, since the run's start.
 */
public record Difference(String subject, long lifecycleId, String requestId, int record, String recordType,
                         long sinceStartNs, List<Field> fields, String recorded, String replayed) {
    /** Lifecycle id of a difference in the worker records. */
    public static final long WORKERS = -1;
    /** Lifecycle id of a difference in the order of dispatches. */
    public static final long DISPATCH_ORDER = -2;

    /** A field of the record that differs: its path ({@code error.retryAfterNanos}) and both values. */
    public record Field(String name, String recorded, String replayed) {
        @Override
        public String toString() {
            return name + " recorded " + recorded + ", replayed " + replayed;
        }
    }

    /** Readable: which record, and which fields with both values, or both records. */
    @Override
    public String toString() {
        if (lifecycleId == DISPATCH_ORDER) {
            return subject + ": " + recorded + ", replayed " + replayed;
        }
        String where = subject + ": record #" + record + " (" + recordType + " at +" + seconds(sinceStartNs) + ")";
        if (!fields.isEmpty()) {
            return where + " differs in " + String.join("; ", fields.stream().map(Field::toString).toList());
        }
        return where + " recorded " + recorded + ", replayed " + replayed;
    }

    private static String seconds(long nanos) {
        return String.format("%d.%06d s", nanos / 1_000_000_000L, nanos % 1_000_000_000L / 1_000);
    }
}
