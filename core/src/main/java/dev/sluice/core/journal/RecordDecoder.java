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

/** Reads the records {@link RecordEncoder} and {@link EncodingObserver} write. Cold path; stateless. */
final class RecordDecoder {
    private static final Classification.Kind[] KINDS = Classification.Kind.values();
    private static final RequestView.Stage[] STAGES = RequestView.Stage.values();
    private static final ErrorClass[] ERRORS = ErrorClass.values();
    private static final SessionContext.Finality[] FINALITIES = SessionContext.Finality.values();
    private static final SessionContext.InputTrigger[] TRIGGERS = SessionContext.InputTrigger.values();

    private RecordDecoder() {
    }

    /** One record, or {@code null} for a type this version does not know (a newer writer). */
    static JournalRecord decode(Bytes<?> in) {
        RecordType type = RecordType.of(in.readByte());
        if (type == null) {
            return null;
        }
        long t = in.readLong();
        return switch (type) {
            case HEADER -> header(in, t);
            case ARRIVED -> arrived(in, t);
            case REFUSED -> refused(in, t);
            case CLASSIFIED -> new JournalRecord.Classified(t, in.readLong(), KINDS[in.readByte()], overrides(in));
            case ENQUEUED -> new JournalRecord.Enqueued(t, in.readLong(), in.readInt(), in.readUtf8(), in.readUtf8(),
                in.readUtf8(), in.readLong(), in.readLong(), in.readInt(), overrides(in));
            case REJECTED -> new JournalRecord.Rejected(t, in.readLong(), STAGES[in.readByte()], error(in),
                in.readRemaining() >= Integer.BYTES ? in.readInt() : -1);
            case DISPATCHED -> new JournalRecord.Dispatched(t, in.readLong(), worker(in));
            case RESPONDING -> new JournalRecord.Responding(t, in.readLong());
            case COMPLETED -> new JournalRecord.Completed(t, in.readLong(), in.readLong());
            case ABORTED -> new JournalRecord.Aborted(t, in.readLong(), STAGES[in.readByte()], in.readUtf8(),
                in.readUtf8());
            case RETRIED -> new JournalRecord.Retried(t, in.readLong());
            case WORKER_JOINED -> new JournalRecord.WorkerJoined(t, worker(in), in.readLong(), in.readLong());
            case WORKER_LEFT -> new JournalRecord.WorkerLeft(t, worker(in));
            case KV_EVENT -> new JournalRecord.KvEventRecord(t, kvEvent(in));
            case CLOSED -> new JournalRecord.Closed(t);
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
        return in.readRemaining() > 0 ? request.withClientRequestId(in.readUtf8()) : request;
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
            default -> new KvEvent.Cleared(worker, eventId);
        };
    }

    private static long[] longs(Bytes<?> in) {
        long[] values = new long[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    private static JournalRecord.Header header(Bytes<?> in, long t) {
        int version = in.readShort();
        long wall = in.readLong();
        String model = in.readUtf8();
        String source = in.readUtf8();
        String text = in.readUtf8();
        byte[] digest = new byte[32];
        in.read(digest);
        return new JournalRecord.Header(t, version, wall, model, source, text, JournalHeader.hex(digest),
            in.readUtf8(), in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readDouble(),
            QueuePolicy.valueOf(in.readUtf8()));
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
        String requestId = in.readUtf8();
        String policyClass = in.readUtf8();
        String tenant = in.readUtf8();
        String session = in.readUtf8();
        String parent = in.readUtf8();
        byte finality = in.readByte();
        byte trigger = in.readByte();
        return new JournalRecord.Request(requestId, ingressAt, tokens, policyClass, tenant, session, parent,
            finality < 0 ? null : FINALITIES[finality], trigger < 0 ? null : TRIGGERS[trigger], strict, jump, pinned);
    }

    private static JournalRecord.Overrides overrides(Bytes<?> in) {
        return new JournalRecord.Overrides(in.readUtf8(), in.readLong(), in.readLong(), worker(in));
    }

    private static JournalRecord.Error error(Bytes<?> in) {
        ErrorClass errorClass = ERRORS[in.readByte()];
        int status = in.readInt();
        int overload = in.readInt();
        long retryAfter = in.readLong();
        return new JournalRecord.Error(errorClass, in.readUtf8(), in.readUtf8(), in.readUtf8(), status, overload,
            retryAfter);
    }
}
