package dev.sluice.core.journal;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RequestView;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes the field blocks of the layout in {@code FORMAT.md} with primitive writes only: strings go out as
 * stop-bit-length UTF-8 straight from the {@code String} (no encoding buffer), {@code null} as length -1; enums
 * as their one-byte code. Allocates nothing. Stateless.
 */
final class RecordEncoder {
    /** The byte for an absent enum value (no session). */
    static final byte ABSENT = -1;

    private RecordEncoder() {
    }

    static void worker(Bytes<?> out, WorkerWithDpRank worker) {
        if (worker == null) {
            out.writeLong(-1L);
            out.writeInt(-1);
        } else {
            out.writeLong(worker.workerId());
            out.writeInt(worker.dpRank());
        }
    }

    /** The arrival block from a live request's view. */
    static void request(Bytes<?> out, RequestView r) {
        out.writeLong(r.ingressAt());
        out.writeLong(r.inputTokens());
        out.writeInt(r.requestedStrictPriority());
        out.writeDouble(r.requestedPriorityJump());
        worker(out, r.pinnedWorker());
        out.writeUtf8(r.requestId());
        out.writeUtf8(r.requestedPolicyClass());
        out.writeUtf8(r.tenant());
        session(out, r.sessionContext());
    }

    /** The prompt's block hashes, appended to ARRIVED (a replay matches them against the recorded KV events). */
    static void promptBlocks(Bytes<?> out, RequestView r) {
        int blocks = r.promptBlocks();
        out.writeInt(blocks);
        for (int i = 0; i < blocks; i++) {
            out.writeLong(r.promptBlockHash(i));
        }
    }

    /** The arrival block of a refused request; it never got a lifecycle, so its ingress time is the refusal's. */
    static void request(Bytes<?> out, long nowNs, AdmissionRequest r) {
        out.writeLong(nowNs);
        out.writeLong(r.inputTokens());
        out.writeInt(r.strictPriority());
        out.writeDouble(r.priorityJump());
        worker(out, r.pinnedWorker());
        out.writeUtf8(r.requestId());
        out.writeUtf8(r.policyClass());
        out.writeUtf8(r.tenant());
        session(out, r.sessionContext());
    }

    private static void session(Bytes<?> out, SessionContext session) {
        if (session == null) {
            out.writeUtf8(null);
            out.writeUtf8(null);
            out.writeByte(ABSENT);
            out.writeByte(ABSENT);
        } else {
            out.writeUtf8(session.sessionId());
            out.writeUtf8(session.parentSessionId());
            out.writeByte((byte) session.finality().ordinal());
            out.writeByte((byte) session.inputTrigger().ordinal());
        }
    }

    /** The classifier's overrides as the view shows them now. */
    static void overrides(Bytes<?> out, RequestView r) {
        out.writeUtf8(r.policyClassOverride());
        out.writeLong(r.dueAt());
        out.writeLong(r.costOverride());
        worker(out, r.workerSelectionTarget());
    }

    static void error(Bytes<?> out, AdmissionError error, int overloadStatus) {
        out.writeByte((byte) error.errorClass().ordinal());
        out.writeInt(error.httpStatus(overloadStatus));
        out.writeInt(overloadStatus);
        out.writeLong(error.retryAfterNanos());
        out.writeUtf8(error.reason());
        out.writeUtf8(error.publicMessage());
        out.writeUtf8(error.diagnostic());
    }

    /** The cause's class name (cached by the JVM) and message; no {@code toString()}, which would allocate. */
    static void cause(Bytes<?> out, Throwable cause) {
        if (cause == null) {
            out.writeUtf8(null);
            out.writeUtf8(null);
        } else {
            out.writeUtf8(cause.getClass().getName());
            out.writeUtf8(cause instanceof AdmissionError e ? e.reason() : cause.getMessage());
        }
    }

    /** The header body (cold path: once per start). */
    static void header(Bytes<?> out, JournalHeader header, long wallClockNs) {
        out.writeShort((short) JournalHeader.FORMAT_VERSION);
        out.writeLong(wallClockNs);
        out.writeUtf8(header.model());
        out.writeUtf8(header.policySource());
        out.writeUtf8(header.policyText());
        out.write(header.fingerprint());
        out.writeUtf8(header.classifier());
        out.writeInt(header.overloadStatus());
        out.writeInt(header.maxLiveRequests());
        out.writeInt(header.maxDeferrals());
        out.writeInt(header.blockSize());
        out.writeDouble(header.fallbackThreshold());
        out.writeUtf8(header.fallbackPolicy().name());
    }
}
