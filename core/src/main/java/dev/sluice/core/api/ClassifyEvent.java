package dev.sluice.core.api;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A lifecycle event of an admitted (or rejected) request, delivered to the classifier's {@code onEvent} in
 * lifecycle order: {@code Sent}, then {@code Responding}, then exactly one terminal event ({@code Completed} or
 * {@code Aborted}). A terminal event can arrive without a {@code Sent} (a request rejected or cancelled before
 * dispatch ends with {@code Aborted}). A reused request id is not classified again until the previous lifecycle's
 * terminal event has been delivered.
 */
public sealed interface ClassifyEvent {
    /** The logical request id. */
    String requestId();

    /** True for {@link Completed} and {@link Aborted}. */
    default boolean isTerminal() {
        return false;
    }

    /** The request was dispatched to this worker (the actual one, which may differ from a suggested target). */
    record Sent(String requestId, WorkerWithDpRank worker) implements ClassifyEvent {
        public Sent {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(worker, "worker");
        }
    }

    /** The first response item arrived from the worker. */
    record Responding(String requestId, WorkerWithDpRank worker) implements ClassifyEvent {
        public Responding {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(worker, "worker");
        }
    }

    /**
     * Terminal success.
     *
     * @param contextTokens prompt plus generated tokens when known (from usage), else empty.
     */
    record Completed(String requestId, WorkerWithDpRank worker, OptionalLong contextTokens) implements ClassifyEvent {
        public Completed {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(worker, "worker");
            Objects.requireNonNull(contextTokens, "contextTokens");
        }

        @Override
        public boolean isTerminal() {
            return true;
        }
    }

    /**
     * Terminal failure: rejected (by this classifier or by the router), cancelled by the client, or failed in
     * dispatch or streaming.
     *
     * @param worker the last worker the request was placed on, if any.
     * @param cause  why; when this classifier rejected the request, its own {@link AdmissionError}.
     */
    record Aborted(String requestId, Optional<WorkerWithDpRank> worker, Optional<Throwable> cause)
        implements ClassifyEvent {
        public Aborted {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(worker, "worker");
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public boolean isTerminal() {
            return true;
        }
    }
}
