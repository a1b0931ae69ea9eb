package dev.sluice.transport.simulation;

/**
 * One {@link Arrival} being played: submitted when the clock reaches it, cancelled when its client leaves, and sent
 * again after the Retry-After when the router preempted it.
 * Its essential prefill tokens are its whole prompt, since nothing says what it shares with others. Simulation thread
 * only; not thread-safe.
 */
final class ArrivalRun implements TurnOwner {
    private final ClusterSimulation host;
    private final Arrival arrival;
    private TurnRun run;
    private boolean left;

    ArrivalRun(ClusterSimulation host, Arrival arrival) {
        this.host = host;
        this.arrival = arrival;
    }

    void start() {
        if (arrival.leavesAfterNs() > 0) {
            host.after(arrival.leavesAfterNs(), () -> {
                left = true;
                run.cancel(ClusterMetrics.Outcome.GAVE_UP);
            });
        }
        submit();
    }

    private void submit() {
        run = new TurnRun(host, this, arrival.request().requestId(), 0, arrival.prompt(), arrival.maxTokens(),
            host.now());
        host.submit(run, arrival.request());
    }

    @Override
    public long essentialTokens(TurnRun run) {
        return run.prompt.length;
    }

    @Override
    public void turnEnded(TurnRun ended, ClusterMetrics.Outcome outcome) {
        if (outcome == ClusterMetrics.Outcome.PREEMPTED && !host.stopping() && !left) {
            // Its client was told 503 with a Retry-After: it sends the same request again once that has passed
            // (unless it has left by then).
            host.after(Math.max(1, ended.retryAfterNs()), () -> {
                if (left || host.stopping()) {
                    host.arrivalEnded();
                } else {
                    submit();
                }
            });
            return;
        }
        host.arrivalEnded();
    }
}
