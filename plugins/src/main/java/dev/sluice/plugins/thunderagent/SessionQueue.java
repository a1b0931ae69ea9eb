package dev.sluice.plugins.thunderagent;

import java.util.ArrayDeque;

/**
 * The requests of one session: at most one released ({@code current}), the rest waiting in arrival order.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class SessionQueue {
    final ArrayDeque<PendingRequest> waiting = new ArrayDeque<>();
    PendingRequest current;

    /** True when no request runs and none waits: the entry can go. */
    boolean isEmpty() {
        return current == null && waiting.isEmpty();
    }

    /** The request that may be admitted next: the first waiting one while none runs, else {@code null}. */
    PendingRequest admissible() {
        return current == null ? waiting.peekFirst() : null;
    }
}
