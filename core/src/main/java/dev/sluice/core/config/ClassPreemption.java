package dev.sluice.core.config;

/**
 * Preemption of one policy class ({@code preemptible}, {@code preemption_priority} in the router-policy YAML). A
 * queued request {@code R} whose class cannot be placed may take the capacity of a dispatched request {@code V} that
 * has not produced its first response item when {@code V}'s class is preemptible and {@code R} outranks {@code V}:
 * {@code R}'s class has a higher preemption priority, or the same one and {@code R} a higher strict priority. So a
 * class that is not preemptible is never a victim, and a class outranks no one at the default priority 0 unless its
 * requests carry a strict priority. Immutable.
 *
 * @param preemptible whether this class's unanswered dispatched requests may be preempted.
 * @param priority    the class's preemption priority; higher outranks lower. Non-negative.
 */
public record ClassPreemption(boolean preemptible, long priority) {
    /** Never preempted, priority 0: every class of a file without the keys (Dynamo's files behave as before). */
    public static final ClassPreemption NONE = new ClassPreemption(false, 0);

    public ClassPreemption {
        if (priority < 0) {
            throw new IllegalArgumentException("preemption_priority must be non-negative, was " + priority);
        }
    }

    /**
     * True when a request of this class with strict priority {@code strict} may preempt one of {@code victim}'s class
     * with strict priority {@code victimStrict}.
     */
    public boolean outranks(int strict, ClassPreemption victim, int victimStrict) {
        return victim.preemptible
            && (priority > victim.priority || (priority == victim.priority && strict > victimStrict));
    }
}
