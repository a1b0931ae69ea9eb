package dev.sluice.transport.simulation;

/**
 * The client a {@link TurnRun} belongs to: a {@link SessionRun} (closed loop) or an {@link ArrivalRun} (open loop).
 * Called on the simulation thread.
 */
interface TurnOwner {
    /** The turn's essential prefill tokens (see {@link ClusterReport}), when it is dispatched. */
    long essentialTokens(TurnRun run);

    /** The turn ended, once, with this outcome. */
    void turnEnded(TurnRun run, ClusterMetrics.Outcome outcome);
}
