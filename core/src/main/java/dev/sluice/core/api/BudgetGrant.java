package dev.sluice.core.api;

/**
 * What a {@link SharedBudgets} claim got: some units, or none and how long until the least asked for would fit.
 *
 * @param units           units granted, to spend locally; 0 when denied.
 * @param retryAfterNanos when denied, nanoseconds until the claim's minimum fits; else 0.
 */
public record BudgetGrant(long units, long retryAfterNanos) {
    public BudgetGrant {
        if (units < 0 || retryAfterNanos < 0) {
            throw new IllegalArgumentException("units and retryAfterNanos must be >= 0, were " + units + ", "
                + retryAfterNanos);
        }
    }

    /** True when the claim got nothing and must wait {@link #retryAfterNanos()}. */
    public boolean denied() {
        return retryAfterNanos > 0;
    }
}
