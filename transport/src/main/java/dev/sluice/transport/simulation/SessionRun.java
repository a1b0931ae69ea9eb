package dev.sluice.transport.simulation;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.host.AdmissionRequest;

/**
 * One session being played: sends its turns one at a time, each after the previous answer plus the turn's gap,
 * with the previous prompt and answer as the new prompt's prefix. A turn that does not complete ends the session.
 * Simulation thread only; not thread-safe.
 */
final class SessionRun implements TurnOwner {
    final SessionPlan plan;
    private final ClusterSimulation host;
    /** The context of the last completed turn (its prompt, then its answer), or {@code null} before the first. */
    int[] context;
    private long startedNs;

    SessionRun(ClusterSimulation host, SessionPlan plan) {
        this.host = host;
        this.plan = plan;
    }

    void start() {
        startedNs = host.now();
        send(0);
    }

    @Override
    public long essentialTokens(TurnRun run) {
        return host.essentialTokens(this, run);
    }

    @Override
    public void turnEnded(TurnRun run, ClusterMetrics.Outcome outcome) {
        int next = run.turn + 1;
        if (outcome != ClusterMetrics.Outcome.COMPLETED) {
            host.sessionEnded(this, false);
            return;
        }
        int[] answer = run.output();
        context = concat(run.prompt, answer);
        if (next == plan.turns().size()) {
            host.sessionEnded(this, true);
        } else if (host.stopping()) {
            host.sessionEnded(this, false);
        } else {
            host.after(plan.turns().get(next).gapNs(), () -> send(next));
        }
    }

    long startedNs() {
        return startedNs;
    }

    private void send(int turn) {
        if (host.stopping()) {
            host.sessionEnded(this, false);
            return;
        }
        SessionPlan.Turn spec = plan.turns().get(turn);
        int[] prompt = turn == 0 ? concat(plan.systemPrompt(), spec.newTokens())
            : concat(context, spec.newTokens());
        String requestId = plan.sessionId() + "-t" + turn;
        AdmissionRequest.Builder request = AdmissionRequest.builder(requestId)
            .promptTokens(prompt, host.hasher()).policyClass(plan.policyClass());
        if (plan.sessionHeader()) {
            boolean last = turn == plan.turns().size() - 1;
            request.sessionContext(new SessionContext(plan.sessionId(), null,
                last ? SessionContext.Finality.FINAL : SessionContext.Finality.CONTINUING,
                turn == 0 ? SessionContext.InputTrigger.USER_MESSAGE : SessionContext.InputTrigger.TOOL_RESULT));
        }
        TurnRun run = new TurnRun(host, this, requestId, turn, prompt, spec.maxTokens(), host.now());
        host.submit(run, request.build());
        if (spec.patienceNs() > 0) {
            host.after(spec.patienceNs(), run::giveUpIfWaiting);
        }
    }

    private static int[] concat(int[] a, int[] b) {
        int[] all = new int[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
