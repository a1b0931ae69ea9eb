package dev.sluice.core.replay;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Wakeup;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.spi.RequestClassifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers each classification from the recording, so a replay is deterministic whatever the recorded classifier
 * did (deferred on virtual threads, parked on wake-ups, read a quota service): a recorded admit is replayed with
 * its overrides; a reject with its error; a deferral or park becomes a park that the replay wakes, with the recorded
 * outcome, when it reaches the recorded decision in the journal: at its position, not merely its instant, because
 * the live router may have taken other inputs (KV events, completions) in the same instant before it. A classifier
 * that threw is replayed as one throwing the same text. What is then compared is the router's own decisions. Runs
 * on the replay's (scheduler) thread only.
 */
final class ReplayClassifier implements RequestClassifier {
    private static final String THREW = "request classifier threw: ";

    private final Map<Long, Lifecycle> recorded;
    /** Parked replays by the recorded decision that ends them. */
    private final Map<JournalRecord.Classified, Parked> parked = new HashMap<>();
    private long expected = -1;

    ReplayClassifier(Map<Long, Lifecycle> recorded) {
        this.recorded = recorded;
    }

    /** The next {@code classify} call is for this recorded lifecycle (the driver submits one arrival at a time). */
    void expect(long recordedLifecycleId) {
        expected = recordedLifecycleId;
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        Lifecycle lifecycle = recorded.get(expected);
        expected = -1;
        if (lifecycle == null) {
            // The recording refused or never classified this request; its replay reached the classifier anyway.
            throw new ReplayedFailure("replay: the recording has no classification of " + request.requestId());
        }
        List<JournalRecord.Classified> decisions = new ArrayList<>();
        for (JournalRecord record : lifecycle.records()) {
            if (record instanceof JournalRecord.Classified c) {
                decisions.add(c);
            }
        }
        if (decisions.isEmpty()) {
            JournalRecord.Rejected failed = lifecycle.first(JournalRecord.Rejected.class);
            String diagnostic = failed == null ? null : failed.error().diagnostic();
            throw new ReplayedFailure(diagnostic != null && diagnostic.startsWith(THREW)
                ? diagnostic.substring(THREW.length()) : String.valueOf(diagnostic));
        }
        JournalRecord.Classified first = decisions.get(0);
        return switch (first.decision()) {
            case ADMIT -> {
                apply(request, first.overrides());
                yield Classification.admit(request);
            }
            case REJECT -> Classification.reject(error(rejectionAfter(lifecycle, first)));
            case DEFER, PARK -> park(request, lifecycle, first, decisions.size() > 1 ? decisions.get(1) : null);
        };
    }

    /**
     * The replay reached a recorded decision: if it ends a parked replay, wake that one now with the recorded
     * outcome (the scheduler applies it in the same instant, after the inputs before it).
     */
    void reached(JournalRecord.Classified decision) {
        Parked waiting = parked.remove(decision);
        if (waiting == null) {
            return;
        }
        if (waiting.rejection() == null) {
            waiting.wakeup().admit();
        } else {
            waiting.wakeup().reject(waiting.rejection());
        }
    }

    /** A parked replay: its wake-up, and the rejection to answer ({@code null} to admit). */
    private record Parked(Wakeup wakeup, AdmissionError rejection) {
    }

    private Classification park(ClassifyRequest request, Lifecycle lifecycle, JournalRecord.Classified first,
                                JournalRecord.Classified then) {
        if (then == null) {
            apply(request, first.overrides());
            return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
        }
        boolean admit = then.decision() == Classification.Kind.ADMIT;
        apply(request, admit ? then.overrides() : first.overrides());
        parked.put(then, new Parked(request.wakeup(), admit ? null : error(rejectionAfter(lifecycle, then))));
        return Classification.park(request, ClassifyRequest.NO_DEADLINE, null);
    }

    private static void apply(ClassifyRequest request, JournalRecord.Overrides overrides) {
        if (overrides.policyClass() != null) {
            request.setPolicyClass(overrides.policyClass());
        }
        if (overrides.dueAt() != ClassifyRequest.NO_DEADLINE) {
            request.setDueAt(overrides.dueAt());
        }
        if (overrides.costOverride() > 0) {
            request.setSchedulingCostTokens(overrides.costOverride());
        }
        if (overrides.target() != null) {
            request.setWorkerSelectionTarget(overrides.target());
        }
    }

    private static JournalRecord.Error rejectionAfter(Lifecycle lifecycle, JournalRecord.Classified decision) {
        boolean after = false;
        for (JournalRecord record : lifecycle.records()) {
            after |= record == decision;
            if (after && record instanceof JournalRecord.Rejected r) {
                return r.error();
            }
        }
        throw new IllegalStateException("recorded reject of " + lifecycle.requestId() + " has no rejection record");
    }

    /** The recorded error as the classifier returned it; the status is pinned only where it differs. */
    static AdmissionError error(JournalRecord.Error e) {
        AdmissionError error = AdmissionError.of(e.errorClass()).reason(e.reason()).publicMessage(e.publicMessage());
        if (e.diagnostic() != null) {
            error = error.diagnostic(e.diagnostic());
        }
        if (e.errorClass().httpStatus(e.overloadStatus()) != e.httpStatus()) {
            error = error.status(e.httpStatus());
        }
        return e.retryAfterNanos() > 0 ? error.retryAfter(Duration.ofNanos(e.retryAfterNanos())) : error;
    }

    /** A classifier failure whose text is the recorded one. */
    static final class ReplayedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String text;

        ReplayedFailure(String text) {
            super(text, null, false, false);
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
