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
 *
 * <p>The router delivers each kind as one reused instance (a flyweight over its pooled request record, so events
 * cost no allocation): an event is valid only during the {@code onEvent} call that received it. Keep its fields, or
 * a {@link #copy()}, never the event. Events made with the public constructors (tests, other hosts) are ordinary
 * values; all compare by value. Read {@link Completed#hasContextTokens()}, {@link Aborted#workerOrNull()} and
 * {@link Aborted#causeOrNull()} on a hot path: the {@code Optional} accessors make an object when the value is
 * present. Not thread-safe: read it on the thread that received it.
 */
public sealed interface ClassifyEvent {
    /** The logical request id. */
    String requestId();

    /** True for {@link Completed} and {@link Aborted}. */
    default boolean isTerminal() {
        return false;
    }

    /** An independent copy with the same values, to keep past the {@code onEvent} call. */
    ClassifyEvent copy();

    /** The request was dispatched to this worker (the actual one, which may differ from a suggested target). */
    final class Sent implements ClassifyEvent {
        private String requestId;
        private WorkerWithDpRank worker;

        public Sent(String requestId, WorkerWithDpRank worker) {
            set(requestId, worker);
        }

        /** For the host's reused instance: sets the values of the next delivery. */
        public Sent set(String requestId, WorkerWithDpRank worker) {
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            this.worker = Objects.requireNonNull(worker, "worker");
            return this;
        }

        @Override
        public String requestId() {
            return requestId;
        }

        public WorkerWithDpRank worker() {
            return worker;
        }

        @Override
        public Sent copy() {
            return new Sent(requestId, worker);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sent s && requestId.equals(s.requestId) && worker.equals(s.worker);
        }

        @Override
        public int hashCode() {
            return Objects.hash(requestId, worker);
        }

        @Override
        public String toString() {
            return "Sent[requestId=" + requestId + ", worker=" + worker + "]";
        }
    }

    /** The first response item arrived from the worker. */
    final class Responding implements ClassifyEvent {
        private String requestId;
        private WorkerWithDpRank worker;

        public Responding(String requestId, WorkerWithDpRank worker) {
            set(requestId, worker);
        }

        /** For the host's reused instance: sets the values of the next delivery. */
        public Responding set(String requestId, WorkerWithDpRank worker) {
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            this.worker = Objects.requireNonNull(worker, "worker");
            return this;
        }

        @Override
        public String requestId() {
            return requestId;
        }

        public WorkerWithDpRank worker() {
            return worker;
        }

        @Override
        public Responding copy() {
            return new Responding(requestId, worker);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Responding r && requestId.equals(r.requestId) && worker.equals(r.worker);
        }

        @Override
        public int hashCode() {
            return Objects.hash(requestId, worker, 1);
        }

        @Override
        public String toString() {
            return "Responding[requestId=" + requestId + ", worker=" + worker + "]";
        }
    }

    /** Terminal success. */
    final class Completed implements ClassifyEvent {
        /** {@link #contextTokenCount()} when the count is unknown. */
        public static final long UNKNOWN = -1;

        private String requestId;
        private WorkerWithDpRank worker;
        private long contextTokens;

        /** @param contextTokens prompt plus generated tokens when known (from usage), else empty. */
        public Completed(String requestId, WorkerWithDpRank worker, OptionalLong contextTokens) {
            set(requestId, worker, Objects.requireNonNull(contextTokens, "contextTokens").orElse(UNKNOWN));
        }

        /** For the host's reused instance: {@code contextTokens} is {@link #UNKNOWN} or at least 0. */
        public Completed set(String requestId, WorkerWithDpRank worker, long contextTokens) {
            if (contextTokens < UNKNOWN) {
                throw new IllegalArgumentException("contextTokens must be >= 0 or UNKNOWN, was " + contextTokens);
            }
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            this.worker = Objects.requireNonNull(worker, "worker");
            this.contextTokens = contextTokens;
            return this;
        }

        @Override
        public String requestId() {
            return requestId;
        }

        public WorkerWithDpRank worker() {
            return worker;
        }

        /** Prompt plus generated tokens when known (from usage), else empty; makes an object when known. */
        public OptionalLong contextTokens() {
            return contextTokens == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(contextTokens);
        }

        /** True when the engine reported the context tokens. */
        public boolean hasContextTokens() {
            return contextTokens != UNKNOWN;
        }

        /** The context tokens, or {@link #UNKNOWN}. */
        public long contextTokenCount() {
            return contextTokens;
        }

        @Override
        public boolean isTerminal() {
            return true;
        }

        @Override
        public Completed copy() {
            return new Completed(requestId, worker, contextTokens());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Completed c && requestId.equals(c.requestId) && worker.equals(c.worker)
                && contextTokens == c.contextTokens;
        }

        @Override
        public int hashCode() {
            return Objects.hash(requestId, worker, contextTokens);
        }

        @Override
        public String toString() {
            return "Completed[requestId=" + requestId + ", worker=" + worker + ", contextTokens=" + contextTokens()
                + "]";
        }
    }

    /**
     * Terminal failure: rejected (by this classifier or by the router), cancelled by the client, or failed in
     * dispatch or streaming.
     */
    final class Aborted implements ClassifyEvent {
        private String requestId;
        private WorkerWithDpRank worker;
        private Throwable cause;

        /**
         * @param worker the last worker the request was placed on, if any.
         * @param cause  why; when this classifier rejected the request, its own {@link AdmissionError}.
         */
        public Aborted(String requestId, Optional<WorkerWithDpRank> worker, Optional<Throwable> cause) {
            set(requestId, Objects.requireNonNull(worker, "worker").orElse(null),
                Objects.requireNonNull(cause, "cause").orElse(null));
        }

        /** For the host's reused instance; {@code worker} and {@code cause} may be null. */
        public Aborted set(String requestId, WorkerWithDpRank worker, Throwable cause) {
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            this.worker = worker;
            this.cause = cause;
            return this;
        }

        @Override
        public String requestId() {
            return requestId;
        }

        /** The last worker the request was placed on, if any; makes an object when there is one. */
        public Optional<WorkerWithDpRank> worker() {
            return Optional.ofNullable(worker);
        }

        /** Why, if known; makes an object when known. */
        public Optional<Throwable> cause() {
            return Optional.ofNullable(cause);
        }

        /** The last worker the request was placed on, or {@code null}. */
        public WorkerWithDpRank workerOrNull() {
            return worker;
        }

        /** Why, or {@code null}. */
        public Throwable causeOrNull() {
            return cause;
        }

        @Override
        public boolean isTerminal() {
            return true;
        }

        @Override
        public Aborted copy() {
            return new Aborted(requestId, worker(), cause());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Aborted a && requestId.equals(a.requestId) && Objects.equals(worker, a.worker)
                && Objects.equals(cause, a.cause);
        }

        @Override
        public int hashCode() {
            return Objects.hash(requestId, worker, cause);
        }

        @Override
        public String toString() {
            return "Aborted[requestId=" + requestId + ", worker=" + worker() + ", cause=" + cause() + "]";
        }
    }
}
