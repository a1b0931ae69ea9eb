package dev.sluice.core.queue;

/**
 * Deficit round robin across classes (Dynamo §5.5), charged in scheduling-cost tokens.
 * <ol>
 *   <li>A carried class (credit and work left after its last dispatch) goes first if its next dispatchable head is
 *       already affordable. It stays the carried class until the next dispatch, whichever class that is: a poll that
 *       finds it blocked (every worker busy, the usual state between openings of a busy threshold) keeps its turn,
 *       or each opening would move the cursor on and a class would spend one request per round, not its quantum.</li>
 *   <li>A ring pass from the cursor over the ready classes: no dispatchable head, skip without credit; affordable,
 *       dispatch; else add one quantum and dispatch if now affordable.</li>
 *   <li>A pass without progress fast-forwards: every class with a dispatchable head gets the fewest whole rounds of
 *       quantum that make some head affordable, then the first affordable in ring order goes. All blocked: nothing
 *       is added.</li>
 * </ol>
 * A poll therefore visits each ready class at most once (plus the fast-forward over the classes it visited); blocked
 * lanes are parked by {@link ClassQueue#candidate} and not visited again until rechecked. Arithmetic saturates.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class DeficitRoundRobin {
    private final ClassQueue[] classes;
    private final ReadyClasses ready;
    private final int[] visited;
    private int visitedCount;
    private int cursor;
    private int carried = -1;
    private long epoch;

    DeficitRoundRobin(ClassQueue[] classes, ReadyClasses ready) {
        this.classes = classes;
        this.ready = ready;
        this.visited = new int[classes.length];
    }

    /**
     * Chooses the next entry and charges its class (deficit and cursor); the caller removes the entry and then calls
     * {@link #settle}. Returns {@code null}, charging nothing, when no lane head is dispatchable.
     */
    QueueEntry select(DispatchGate gate) {
        epoch++;
        if (carried >= 0) {
            ClassQueue cq = classes[carried];
            QueueEntry head = cq.candidate(gate, epoch);
            if (head != null && head.costTokens() <= cq.deficit) {
                return charge(cq, head);
            }
        }
        visitedCount = 0;
        int chosen = pass(gate, cursor, classes.length);
        if (chosen < 0) {
            chosen = pass(gate, 0, cursor);
        }
        if (chosen >= 0) {
            return charge(classes[chosen], classes[chosen].candidate(gate, epoch));
        }
        return fastForward(gate);
    }

    /** After the charged entry left its class: the class keeps the turn while it has both credit and work. */
    void settle(ClassQueue cq) {
        carried = cq.size > 0 && cq.deficit > 0 ? cq.index : -1;
    }

    int cursor() {
        return cursor;
    }

    private int pass(DispatchGate gate, int from, int to) {
        for (int c = ready.next(from, to); c >= 0; c = ready.next(c + 1, to)) {
            ClassQueue cq = classes[c];
            QueueEntry head = cq.candidate(gate, epoch);
            if (head == null) {
                continue;
            }
            long cost = head.costTokens();
            if (cost > cq.deficit) {
                cq.deficit = saturatingAdd(cq.deficit, cq.spec.quantum());
            }
            if (cost <= cq.deficit) {
                return c;
            }
            visited[visitedCount++] = c;
        }
        return -1;
    }

    private QueueEntry fastForward(DispatchGate gate) {
        if (visitedCount == 0) {
            return null;
        }
        long rounds = Long.MAX_VALUE;
        for (int i = 0; i < visitedCount; i++) {
            ClassQueue cq = classes[visited[i]];
            long need = cq.candidate(gate, epoch).costTokens() - cq.deficit;
            long quantum = cq.spec.quantum();
            rounds = Math.min(rounds, need / quantum + (need % quantum == 0 ? 0 : 1));
        }
        for (int i = 0; i < visitedCount; i++) {
            ClassQueue cq = classes[visited[i]];
            cq.deficit = saturatingAdd(cq.deficit, saturatingMultiply(rounds, cq.spec.quantum()));
        }
        for (int i = 0; i < visitedCount; i++) {
            ClassQueue cq = classes[visited[i]];
            QueueEntry head = cq.candidate(gate, epoch);
            if (head.costTokens() <= cq.deficit) {
                return charge(cq, head);
            }
        }
        return null;
    }

    private QueueEntry charge(ClassQueue cq, QueueEntry head) {
        cq.deficit -= head.costTokens();
        cursor = cq.index + 1 == classes.length ? 0 : cq.index + 1;
        return head;
    }

    static long saturatingMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
    }

    static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
