package dev.sluice.transport.demo;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.spi.RequestClassifier;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The demo's classifier: every request gets a queue budget from ingress (the guide's queue-budget rule), and an
 * agent session runs one turn at a time; a later turn parks, holding no thread, until the running turn ends or its
 * budget runs out. Runs on the scheduler thread only.
 */
final class SessionTurnClassifier implements RequestClassifier {
    private static final AdmissionError SESSION_BUSY = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
        .reason("session_busy").diagnostic("the session's previous turn did not finish within the park budget")
        .publicMessage("The session is busy; retry later");

    private final long queueBudgetNs;
    private final long parkBudgetNs;
    private final Map<String, String> runningTurn = new HashMap<>();
    private final Map<String, ArrayDeque<Parked>> parked = new HashMap<>();
    private final Map<String, String> sessionOfRequest = new HashMap<>();

    private record Parked(String requestId, Wakeup wakeup) {
    }

    SessionTurnClassifier(long queueBudgetNs, long parkBudgetNs) {
        this.queueBudgetNs = queueBudgetNs;
        this.parkBudgetNs = parkBudgetNs;
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        request.setDueAt(request.ingressAt() + queueBudgetNs);
        if (request.sessionContext() == null) {
            return Classification.admit(request);
        }
        String session = request.sessionContext().sessionId();
        sessionOfRequest.put(request.requestId(), session);
        if (!runningTurn.containsKey(session)) {
            runningTurn.put(session, request.requestId());
            return Classification.admit(request);
        }
        parked.computeIfAbsent(session, s -> new ArrayDeque<>()).add(new Parked(request.requestId(),
            request.wakeup()));
        return Classification.park(request, request.ingressAt() + parkBudgetNs, SESSION_BUSY);
    }

    @Override
    public void onEvent(ClassifyEvent event) {
        if (!event.isTerminal()) {
            return;
        }
        String session = sessionOfRequest.remove(event.requestId());
        if (session == null || !event.requestId().equals(runningTurn.get(session))) {
            return;
        }
        runningTurn.remove(session);
        ArrayDeque<Parked> waiting = parked.get(session);
        while (waiting != null && !waiting.isEmpty()) {
            Parked next = waiting.poll();
            if (next.wakeup().admit()) {
                runningTurn.put(session, next.requestId());
                return;
            }
        }
        parked.remove(session);
    }
}
