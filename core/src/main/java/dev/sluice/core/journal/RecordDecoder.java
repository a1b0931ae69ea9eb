package dev.sluice.core.journal;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.kv.KvEvent;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Reads the records {@link RecordEncoder} and {@link EncodingObserver} write. Trusts nothing it reads: every count
 * and string length is checked against the bytes left in the record before anything is allocated or looped by it,
 * and every enum code against the codes of this version, so a damaged record fails with a
 * {@link CorruptRecordException} naming the field (reads past the record's end fail with Chronicle's
 * {@code BufferUnderflowException}). Cold path; stateless.
 */
final class RecordDecoder {
    private static final Classification.Kind[] KINDS = Classification.Kind.values();
    private static final RequestView.Stage[] STAGES = RequestView.Stage.values();
    private static final ErrorClass[] ERRORS = ErrorClass.values();
    private static final SessionContext.Finality[] FINALITIES = SessionContext.Finality.values();
    private static final SessionContext.InputTrigger[] TRIGGERS = SessionContext.InputTrigger.values();

    private RecordDecoder() {
    }

    /**
     * One record, or {@code null} for a type this version does not know (a newer writer).
     *
     * @throws CorruptRecordException when a field does not fit the layout; code 0 is never written, so a record
     *                                starting with it is damaged, not newer.
     */
    static JournalRecord decode(Bytes<?> in) {
        byte code = in.readByte();
        if (code == 0) {
            throw new CorruptRecordException("record type 0 is never written");
        }
        RecordType type = RecordType.of(code);
        if (type == null) {
            return null;
        }
        long t = in.readLong();
        return switch (type) {
            case HEADER -> header(in, t);
            case ARRIVED -> arrived(in, t);
            case REFUSED -> refused(in, t);
            case CLASSIFIED -> new JournalRecord.Classified(t, in.readLong(), code(KINDS, in, "decision kind"),
                overrides(in));
            case ENQUEUED -> new JournalRecord.Enqueued(t, in.readLong(), in.readInt(), str(in), str(in),
                str(in), in.readLong(), in.readLong(), in.readInt(), overrides(in));
            case REJECTED -> new JournalRecord.Rejected(t, in.readLong(), code(STAGES, in, "stage"), error(in),
                in.readRemaining() >= Integer.BYTES ? in.readInt() : -1);
            case DISPATCHED -> new JournalRecord.Dispatched(t, in.readLong(), worker(in));
            case RESPONDING -> new JournalRecord.Responding(t, in.readLong());
            case COMPLETED -> new JournalRecord.Completed(t, in.readLong(), in.readLong());
            case ABORTED -> new JournalRecord.Aborted(t, in.readLong(), code(STAGES, in, "stage"), str(in),
                str(in));
            case RETRIED -> new JournalRecord.Retried(t, in.readLong());
            case WORKER_JOINED -> new JournalRecord.WorkerJoined(t, worker(in), in.readLong(), in.readLong());
            case WORKER_LEFT -> new JournalRecord.WorkerLeft(t, worker(in));
            case KV_EVENT -> new JournalRecord.KvEventRecord(t, kvEvent(in));
            case CLOSED -> new JournalRecord.Closed(t);
            case POLICY_RELOADED -> policyReloaded(in, t);
            case WORKER_LOAD -> new JournalRecord.WorkerLoadRecord(t, new WorkerLoad(worker(in), in.readLong(),
                in.readInt(), in.readInt()));
        };
    }

    /** Older journals end an arrival after its request block, or after its block hashes (no client label). */
    private static JournalRecord.Arrived arrived(Bytes<?> in, long t) {
        long lifecycle = in.readLong();
        JournalRecord.Request request = request(in);
        long[] blocks = in.readRemaining() >= Integer.BYTES ? longs(in) : new long[0];
        return new JournalRecord.Arrived(t, lifecycle, clientLabel(in, request), blocks);
    }

    private static JournalRecord.Refused refused(Bytes<?> in, long t) {
        long lifecycle = in.readLong();
        JournalRecord.Request request = request(in);
        JournalRecord.Error error = error(in);
        return new JournalRecord.Refused(t, lifecycle, clientLabel(in, request), error);
    }

    /** The client's label appended at the end of ARRIVED and REFUSED, when the writer knew the field. */
    private static JournalRecord.Request clientLabel(Bytes<?> in, JournalRecord.Request request) {
        return in.readRemaining() > 0 ? request.withClientRequestId(str(in)) : request;
    }

    private static KvEvent kvEvent(Bytes<?> in) {
        WorkerWithDpRank worker = worker(in);
        long eventId = in.readLong();
        byte kind = in.readByte();
        return switch (kind) {
            case 0 -> {
                boolean hasParent = in.readBoolean();
                long parent = in.readLong();
                long[] sequence = longs(in);
                long[] local = longs(in);
                yield new KvEvent.Stored(worker, eventId, hasParent, parent, sequence, local);
            }
            case 1 -> new KvEvent.Removed(worker, eventId, longs(in));
            case 2 -> new KvEvent.Cleared(worker, eventId);
            default -> throw new CorruptRecordException("KV event kind " + kind + " is not 0, 1 or 2");
        };
    }

    private static long[] longs(Bytes<?> in) {
        int n = in.readInt();
        if (n < 0 || n > in.readRemaining() / Long.BYTES) {
            throw new CorruptRecordException("a count of " + n + " hashes (8 bytes each), but " + in.readRemaining()
                + " bytes remain in the record");
        }
        long[] values = new long[n];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    private static JournalRecord.PolicyReloaded policyReloaded(Bytes<?> in, long t) {
        String source = str(in);
        String text = str(in);
        return new JournalRecord.PolicyReloaded(t, source, text, digest(in, "the reload's"), in.readBoolean(),
            in.readInt(), in.readInt());
    }

    private static String digest(Bytes<?> in, String whose) {
        byte[] digest = new byte[32];
        if (in.readRemaining() < digest.length) {
            throw new CorruptRecordException(whose + " policy fingerprint needs 32 bytes, " + in.readRemaining()
                + " remain");
        }
        in.read(digest);
        return JournalHeader.hex(digest);
    }

    private static JournalRecord.Header header(Bytes<?> in, long t) {
        int version = in.readShort();
        long wall = in.readLong();
        String model = str(in);
        String source = str(in);
        String text = str(in);
        String digest = digest(in, "the header's");
        return new JournalRecord.Header(t, version, wall, model, source, text, digest,
            str(in), in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readDouble(),
            queuePolicy(str(in)));
    }

    static WorkerWithDpRank worker(Bytes<?> in) {
        long id = in.readLong();
        int rank = in.readInt();
        return rank < 0 ? null : new WorkerWithDpRank(id, rank);
    }

    private static JournalRecord.Request request(Bytes<?> in) {
        long ingressAt = in.readLong();
        long tokens = in.readLong();
        int strict = in.readInt();
        double jump = in.readDouble();
        WorkerWithDpRank pinned = worker(in);
        String requestId = str(in);
        String policyClass = str(in);
        String tenant = str(in);
        String session = str(in);
        String parent = str(in);
        byte finality = in.readByte();
        byte trigger = in.readByte();
        return new JournalRecord.Request(requestId, ingressAt, tokens, policyClass, tenant, session, parent,
            finality == RecordEncoder.ABSENT ? null : of(FINALITIES, finality, "session finality"),
            trigger == RecordEncoder.ABSENT ? null : of(TRIGGERS, trigger, "input trigger"), strict, jump, pinned);
    }

    private static JournalRecord.Overrides overrides(Bytes<?> in) {
        return new JournalRecord.Overrides(str(in), in.readLong(), in.readLong(), worker(in));
    }

    private static JournalRecord.Error error(Bytes<?> in) {
        ErrorClass errorClass = code(ERRORS, in, "error class");
        int status = in.readInt();
        int overload = in.readInt();
        long retryAfter = in.readLong();
        return new JournalRecord.Error(errorClass, str(in), str(in), str(in), status, overload,
            retryAfter);
    }

    /**
     * A string: its stop-bit length checked against the bytes left before Chronicle reads (and allocates) it; -1 is
     * {@code null}.
     */
    private static String str(Bytes<?> in) {
        long start = in.readPosition();
        long length = in.readStopBit();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.readRemaining()) {
            throw new CorruptRecordException("a string of " + length + " bytes, but " + in.readRemaining()
                + " bytes remain in the record");
        }
        in.readPosition(start);
        return in.readUtf8();
    }

    private static <E> E code(E[] values, Bytes<?> in, String what) {
        return of(values, in.readByte(), what);
    }

    private static <E> E of(E[] values, byte code, String what) {
        if (code < 0 || code >= values.length) {
            throw new CorruptRecordException(what + " code " + code + " is not one of 0.." + (values.length - 1));
        }
        return values[code];
    }

    private static QueuePolicy queuePolicy(String name) {
        for (QueuePolicy policy : QueuePolicy.values()) {
            if (policy.name().equals(name)) {
                return policy;
            }
        }
        throw new CorruptRecordException("the header's queue policy '" + name + "' is not one of "
            + java.util.Arrays.toString(QueuePolicy.values()));
    }
}
