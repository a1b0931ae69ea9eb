package dev.sluice.plugins.testing;

import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.InMemoryBudgets;
import dev.sluice.core.api.SharedBudgets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.agrona.concurrent.EpochNanoClock;

/**
 * {@link SharedBudgets} for classifier unit tests: an {@link InMemoryBudgets} whose claims wait until the test
 * answers them ({@link #answerAll()}), or fail while the test says the store is unreachable. Single-threaded.
 */
public final class ManualBudgets implements SharedBudgets {
    private final InMemoryBudgets store;
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private boolean held;
    private boolean unreachable;
    private int claims;

    public ManualBudgets(EpochNanoClock clock) {
        this.store = new InMemoryBudgets(clock);
    }

    /** Claims wait for {@link #answerAll()} from now on (true) or answer at once (false). */
    public ManualBudgets hold(boolean hold) {
        this.held = hold;
        return this;
    }

    /** Claims and refunds fail as a store out of reach does. */
    public ManualBudgets unreachable(boolean down) {
        this.unreachable = down;
        return this;
    }

    @Override
    public CompletableFuture<BudgetGrant> claim(String key, long limitPerMinute, long minUnits, long maxUnits) {
        claims++;
        return answer(() -> store.claim(key, limitPerMinute, minUnits, maxUnits));
    }

    @Override
    public CompletableFuture<Void> refund(String key, long limitPerMinute, long units) {
        return answer(() -> store.refund(key, limitPerMinute, units));
    }

    /** Answers every held claim, in order. */
    public void answerAll() {
        while (!pending.isEmpty()) {
            pending.pollFirst().run();
        }
    }

    /** Claims held and not answered yet. */
    public int pending() {
        return pending.size();
    }

    /** Claims sent so far, answered or not. */
    public int claims() {
        return claims;
    }

    private <T> CompletableFuture<T> answer(Supplier<CompletableFuture<T>> call) {
        if (unreachable) {
            return CompletableFuture.failedFuture(new IllegalStateException("store unreachable"));
        }
        if (!held) {
            return call.get();
        }
        CompletableFuture<T> later = new CompletableFuture<>();
        pending.add(() -> call.get().whenComplete((v, e) -> {
            if (e != null) {
                later.completeExceptionally(e);
            } else {
                later.complete(v);
            }
        }));
        return later;
    }
}
