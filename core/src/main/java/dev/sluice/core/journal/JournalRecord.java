package dev.sluice.core.journal;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.host.RequestView;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;

/**
 * One decoded journal record (the reader's view of the layout in {@code FORMAT.md}). Times are the scheduler's
 * clock in nanoseconds; {@link Header#wallClockNs()} ties them to the wall clock. Immutable values; reading
 * allocates, writing does not.
 */
public sealed interface JournalRecord {
    /** When the scheduler saw the input or took the decision. */
    long timeNs();

    RecordType type();

    /** The lifecycle the record belongs to, or -1 (header, worker records). */
    default long lifecycleId() {
        return -1;
    }

    /**
     * What arrived: the request's headers and size. A {@code null} string field was absent. {@code requestId} is
     * the host's (unique among live requests), {@code clientRequestId} the client's {@code x-request-id} label
     * ({@code null}: none sent, or a journal older than the field).
     */
    record Request(String requestId, long ingressAt, long inputTokens, String policyClass, String tenant,
                   String sessionId, String parentSessionId, SessionContext.Finality finality,
                   SessionContext.InputTrigger inputTrigger, int strictPriority, double priorityJump,
                   WorkerWithDpRank pinnedWorker, String clientRequestId) {
        /** A request without a client label. */
        public Request(String requestId, long ingressAt, long inputTokens, String policyClass, String tenant,
                       String sessionId, String parentSessionId, SessionContext.Finality finality,
                       SessionContext.InputTrigger inputTrigger, int strictPriority, double priorityJump,
                       WorkerWithDpRank pinnedWorker) {
            this(requestId, ingressAt, inputTokens, policyClass, tenant, sessionId, parentSessionId, finality,
                inputTrigger, strictPriority, priorityJump, pinnedWorker, null);
        }

        /** This request with the client's label. */
        Request withClientRequestId(String label) {
            return new Request(requestId, ingressAt, inputTokens, policyClass, tenant, sessionId, parentSessionId,
                finality, inputTrigger, strictPriority, priorityJump, pinnedWorker, label);
        }
    }

    /** The classifier's overrides in force: class ({@code null}: none), due at, cost (0: none), soft target. */
    record Overrides(String policyClass, long dueAt, long costOverride, WorkerWithDpRank target) {
    }

    /** A typed rejection as the client saw it ({@code httpStatus}) and as the operator sees it (diagnostic). */
    record Error(ErrorClass errorClass, String reason, String publicMessage, String diagnostic, int httpStatus,
                 int overloadStatus, long retryAfterNanos) {
    }

    /** Written once per start, before everything else. */
    record Header(long timeNs, int formatVersion, long wallClockNs, String model, String policySource,
                  String policyText, String fingerprint, String classifier, int overloadStatus, int maxLiveRequests,
                  int maxDeferrals, int blockSize, double fallbackThreshold, QueuePolicy fallbackPolicy)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.HEADER;
        }

        /** The fallback threshold as an optional (NaN records "unset"). */
        public java.util.OptionalDouble fallbackThresholdOption() {
            return Double.isNaN(fallbackThreshold) ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(fallbackThreshold);
        }

        /** True when the recorded fingerprint is the SHA-256 of the recorded text. */
        public boolean fingerprintMatches() {
            return fingerprint.equals(JournalHeader.hex(JournalHeader.sha256(policyText)));
        }
    }

    /** {@code promptBlockHashes}: the local hashes of the prompt's complete blocks (empty in older journals). */
    record Arrived(long timeNs, long lifecycleId, Request request, long[] promptBlockHashes) implements JournalRecord {
        public RecordType type() {
            return RecordType.ARRIVED;
        }

        /** Content-based, so that recorded and replayed arrivals compare equal as text. */
        @Override
        public String toString() {
            return "Arrived[timeNs=" + timeNs + ", lifecycleId=" + lifecycleId + ", request=" + request
                + ", promptBlocks=" + promptBlockHashes.length + "/" + Integer.toHexString(
                java.util.Arrays.hashCode(promptBlockHashes)) + "]";
        }
    }

    /** An arrival refused before it got a lifecycle (duplicate id, live limit, journal unavailable). */
    record Refused(long timeNs, long lifecycleId, Request request, Error error) implements JournalRecord {
        public RecordType type() {
            return RecordType.REFUSED;
        }
    }

    record Classified(long timeNs, long lifecycleId, Classification.Kind decision, Overrides overrides)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.CLASSIFIED;
        }
    }

    record Enqueued(long timeNs, long lifecycleId, int classIndex, String policyClass, String policyFamily,
                    String cacheBucket, long cachedTokens, long costTokens, int strictPriority, Overrides overrides)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.ENQUEUED;
        }
    }

    /**
     * {@code classIndex}: the profile index of the policy class the request was queued in or turned away from by its
     * queue (a queue limit, an expired deadline), or -1 when it never reached one (and in journals written before
     * the field existed).
     */
    record Rejected(long timeNs, long lifecycleId, RequestView.Stage stage, Error error, int classIndex)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.REJECTED;
        }
    }

    record Dispatched(long timeNs, long lifecycleId, WorkerWithDpRank worker) implements JournalRecord {
        public RecordType type() {
            return RecordType.DISPATCHED;
        }
    }

    record Responding(long timeNs, long lifecycleId) implements JournalRecord {
        public RecordType type() {
            return RecordType.RESPONDING;
        }
    }

    /** {@code contextTokens} is -1 when the engine reported none. */
    record Completed(long timeNs, long lifecycleId, long contextTokens) implements JournalRecord {
        public RecordType type() {
            return RecordType.COMPLETED;
        }
    }

    /** The cause's type and message, both {@code null} when none was given. */
    record Aborted(long timeNs, long lifecycleId, RequestView.Stage stage, String causeType, String causeMessage)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.ABORTED;
        }
    }

    record Retried(long timeNs, long lifecycleId) implements JournalRecord {
        public RecordType type() {
            return RecordType.RETRIED;
        }
    }

    /** {@code totalKvBlocks} is -1 when the worker published none. */
    record WorkerJoined(long timeNs, WorkerWithDpRank worker, long maxNumBatchedTokens, long totalKvBlocks)
        implements JournalRecord {
        public RecordType type() {
            return RecordType.WORKER_JOINED;
        }
    }

    record WorkerLeft(long timeNs, WorkerWithDpRank worker) implements JournalRecord {
        public RecordType type() {
            return RecordType.WORKER_LEFT;
        }
    }

    /**
     * The writer closed cleanly (after its router), at the time of the run's last record: a run without one was cut
     * short (the process was killed) or is still being written.
     */
    record Closed(long timeNs) implements JournalRecord {
        public RecordType type() {
            return RecordType.CLOSED;
        }
    }

    /** An engine's report of its own load as the router received it. */
    record WorkerLoadRecord(long timeNs, WorkerLoad load) implements JournalRecord {
        public RecordType type() {
            return RecordType.WORKER_LOAD;
        }
    }

    /** An engine's KV-cache event as the router received it. */
    record KvEventRecord(long timeNs, KvEvent event) implements JournalRecord {
        public RecordType type() {
            return RecordType.KV_EVENT;
        }
    }

    /**
     * A reloaded router policy took effect (between two duty cycles): its text as read (with its SHA-256), whether
     * the classifier was re-created, how many queued requests moved and how many of those to another class.
     */
    record PolicyReloaded(long timeNs, String policySource, String policyText, String fingerprint,
                          boolean classifierReplaced, int requeued, int reassigned) implements JournalRecord {
        public RecordType type() {
            return RecordType.POLICY_RELOADED;
        }
    }
}
