package dev.sluice.core.queue;

import java.util.Objects;

/**
 * A policy class refused a request because a per-worker queue limit is reached. Limits are checked before adding:
 * the request that crosses a limit is accepted, the next one is refused.
 *
 * @param policyClass the physical class.
 * @param kind        which limit.
 * @param current     usage before this request.
 * @param limit       the effective limit (per-worker value times discovered workers, saturating).
 */
public record QueueRejection(String policyClass, LimitKind kind, long current, long limit) {
    /** The three per-worker limits, checked in this order. */
    public enum LimitKind {
        REQUESTS("requests"),
        RAW_ISL_TOKENS("raw_isl_tokens"),
        CACHED_TOKENS("cached_tokens");

        private final String label;

        LimitKind(String label) {
            this.label = label;
        }

        /** The metric label and message word. */
        public String label() {
            return label;
        }
    }

    public QueueRejection {
        Objects.requireNonNull(policyClass, "policyClass");
        Objects.requireNonNull(kind, "kind");
    }

    /** The operator-facing text, as Dynamo words it. */
    public String message() {
        return "router policy class \"" + policyClass + "\" queue " + kind.label() + " limit reached (current="
            + current + ", limit=" + limit + ")";
    }
}
