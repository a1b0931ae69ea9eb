package dev.sluice.transport.engine.sim;

/**
 * How a simulated forward pass is timed ({@link SimEngineContext#costModel}); both use the mocker's mid-2025
 * coefficients ({@link PerfModel}).
 * <ul>
 *   <li>{@link #MOCKER} (the default): each prefill chunk costs {@code prefillMs(T)}, a polynomial in its own
 *   {@code T} new tokens only, as if no context were cached; plus one decode step timed from KV utilisation.</li>
 *   <li>{@link #ATTENTION}: the pass's fixed cost once, a linear term per prefilled token, and an attention term per
 *   chunk over the context it attends to, {@code T·(C + T/2)} for a chunk of {@code T} tokens after {@code C}
 *   computed or cached ones (at {@code C = 0} the mocker's quadratic term); plus the same decode step. Re-prefilling
 *   a long context is then as dear as on a GPU.</li>
 * </ul>
 * Immutable.
 */
public enum CostModel {
    MOCKER, ATTENTION
}
