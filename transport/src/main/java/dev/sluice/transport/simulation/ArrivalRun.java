package dev.sluice.transport.simulation;

/**
 * One {@link Arrival} being played: submitted when the clock reaches it, and cancelled when its client leaves.
 * Its essential prefill tokens are its whole prompt, since nothing says what it shares with others. Simulation thread
 * only; not thread-safe.
 */
final class ArrivalRun implements TurnOwner {
    private final ClusterSimulation host;
    private final Arrival arrival;

    ArrivalRun(ClusterSimulation host, Arrival arrival) {
        this.host = host;
        this.arrival = arrival;
    }

    void start() {
        TurnRun run = new TurnRun(host, this, arrival.request().requestId(), 0, arrival.prompt(), arrival.maxTokens(),
            host.now());
        host.submit(run, arrival.request());
        if (arrival.leavesAfterNs() > 0) {
            host.after(arrival.leavesAfterNs(), () -> run.cancel(ClusterMetrics.Outcome.GAVE_UP));
        }
    }

    @Override
    public long essentialTokens(TurnRun run) {
        return run.prompt.length;
    }

    @Override
    public void turnEnded(TurnRun run, ClusterMetrics.Outcome outcome) {
        host.arrivalEnded();
    }
}
