package dev.sluice.core.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The live context-token high-water mark of one request lifecycle: prompt plus generated tokens so far, as the
 * engine reports them. It only grows. A classifier may keep it after {@code classify} to watch a running request;
 * once the lifecycle ends the value stops changing. It is a logical count, not physical KV occupancy.
 *
 * <p>Thread-safe: the host raises it from the scheduler thread, plugins read it from any thread.
 */
public final class RequestProgress {
    private static final VarHandle CONTEXT_TOKENS;

    static {
        try {
            CONTEXT_TOKENS = MethodHandles.lookup().findVarHandle(RequestProgress.class, "contextTokens", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long contextTokens;

    private RequestProgress(long initial) {
        this.contextTokens = initial;
    }

    /**
     * A new progress counter and the handle that raises it. The host keeps the updater; plugins get
     * {@link Updater#progress()}.
     */
    public static Updater create(long initialContextTokens) {
        return new Updater(new RequestProgress(Math.max(0, initialContextTokens)));
    }

    /** Prompt plus generated tokens observed so far. */
    public long contextTokens() {
        return (long) CONTEXT_TOKENS.getOpaque(this);
    }

    /** Raises a {@link RequestProgress}; stale or concurrent updates never move it backwards. */
    public static final class Updater {
        private final RequestProgress progress;

        private Updater(RequestProgress progress) {
            this.progress = progress;
        }

        /** The reader this updater raises. */
        public RequestProgress progress() {
            return progress;
        }

        /** Raises the context-token count to at least {@code tokens}. */
        public void updateContextTokens(long tokens) {
            long current = progress.contextTokens;
            while (tokens > current) {
                if (CONTEXT_TOKENS.compareAndSet(progress, current, tokens)) {
                    return;
                }
                current = progress.contextTokens;
            }
        }
    }

    @Override
    public String toString() {
        return "RequestProgress[contextTokens=" + contextTokens() + "]";
    }
}
