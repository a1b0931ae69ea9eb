package dev.sluice.core.audit;

import dev.sluice.core.api.Classification;
import dev.sluice.core.journal.JournalRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the invariants of every lifecycle in a run: exactly one terminal event; events in lifecycle order
 * (arrived, classified, enqueued, dispatched, responding, terminal; a retry goes back to enqueued); times never
 * going back; nothing dispatched after its queue deadline or after its terminal event. A run that did not close
 * cleanly (its process was killed, or it is still being written) may end with lifecycles that have no terminal
 * event yet: those are {@link #unfinished unfinished}, not violations, as long as what they recorded is in order.
 * Cold path; stateless.
 */
public final class JournalVerifier {
    /** One broken invariant. */
    public record Violation(int run, long lifecycleId, String requestId, String invariant) {
        @Override
        public String toString() {
            return "run " + run + " request " + requestId + " (lifecycle " + lifecycleId + "): " + invariant;
        }
    }

    private enum State { NONE, ARRIVED, WAITING, ADMITTED, QUEUED, DISPATCHED, ENDED }

    private JournalVerifier() {
    }

    /** Every violation in the run; empty when it is well-formed. */
    public static List<Violation> verify(JournalRun run) {
        List<Violation> violations = new ArrayList<>();
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            String problem = check(lifecycle, run.closed());
            if (problem != null) {
                violations.add(new Violation(run.index(), lifecycle.id(), lifecycle.requestId(), problem));
            }
        }
        return violations;
    }

    /**
     * The lifecycles of a run that did not close cleanly which were still live where its records end: in order so
     * far, without a terminal event. Empty for a closed run (there, a missing terminal event is a violation).
     */
    public static List<Lifecycle> unfinished(JournalRun run) {
        List<Lifecycle> unfinished = new ArrayList<>();
        if (!run.closed()) {
            for (Lifecycle lifecycle : run.lifecycles().values()) {
                if (lifecycle.terminals().isEmpty() && check(lifecycle, false) == null) {
                    unfinished.add(lifecycle);
                }
            }
        }
        return unfinished;
    }

    /** The first broken invariant of a lifecycle, or {@code null}; {@code closed}: its run closed cleanly. */
    static String check(Lifecycle lifecycle, boolean closed) {
        State state = State.NONE;
        long lastTime = Long.MIN_VALUE;
        long dueAt = Long.MAX_VALUE;
        int terminals = 0;
        for (JournalRecord record : lifecycle.records()) {
            if (record.timeNs() < lastTime) {
                return "time goes back at " + record.type();
            }
            lastTime = record.timeNs();
            if (state == State.ENDED) {
                return record instanceof JournalRecord.Dispatched ? "dispatched after its terminal event"
                    : record.type() + " after its terminal event";
            }
            State next = next(state, record);
            if (next == null) {
                return record.type() + " out of order (after " + state.name().toLowerCase(java.util.Locale.ROOT)
                    + ")";
            }
            if (record instanceof JournalRecord.Enqueued e) {
                dueAt = e.overrides().dueAt();
            }
            if (record instanceof JournalRecord.Dispatched && record.timeNs() > dueAt) {
                return "dispatched " + (record.timeNs() - dueAt) / 1_000_000 + " ms after its deadline";
            }
            if (Lifecycle.isTerminal(record)) {
                terminals++;
            }
            state = next;
        }
        if (terminals == 0 && closed) {
            return "no terminal event, though the journal closed cleanly";
        }
        return null;
    }

    private static State next(State state, JournalRecord record) {
        return switch (record) {
            case JournalRecord.Arrived a -> state == State.NONE ? State.ARRIVED : null;
            case JournalRecord.Refused r -> state == State.NONE ? State.ENDED : null;
            case JournalRecord.Classified c -> state == State.ARRIVED || state == State.WAITING
                ? (c.decision() == Classification.Kind.ADMIT ? State.ADMITTED
                : c.decision() == Classification.Kind.REJECT ? State.ADMITTED : State.WAITING) : null;
            case JournalRecord.Enqueued e -> state == State.ADMITTED ? State.QUEUED : null;
            case JournalRecord.Dispatched d -> state == State.QUEUED ? State.DISPATCHED : null;
            case JournalRecord.Responding r -> state == State.DISPATCHED ? State.DISPATCHED : null;
            case JournalRecord.Retried r -> state == State.DISPATCHED ? State.ADMITTED : null;
            case JournalRecord.Completed c -> state == State.DISPATCHED ? State.ENDED : null;
            case JournalRecord.Rejected r -> state != State.NONE && state != State.DISPATCHED ? State.ENDED : null;
            case JournalRecord.Aborted a -> state != State.NONE ? State.ENDED : null;
            default -> null;
        };
    }
}
