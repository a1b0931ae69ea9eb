package dev.sluice.transport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The hand-off of an engine's callbacks to the handler's thread. */
class EngineQueueTest {
    @Test
    void shouldGiveTheCallbacksInOrder() throws InterruptedException {
        EngineQueue queue = new EngineQueue();
        queue.onToken(7);
        queue.onText("hi");
        queue.onFinished(FinishReason.STOP, 3, 2);

        assertEquals(new EngineQueue.Token(7), queue.take());
        assertEquals(new EngineQueue.Token(EngineListener.UNKNOWN_TOKEN_ID, "hi"), queue.takeBatched());
        assertEquals(new EngineQueue.Finished(FinishReason.STOP, 3, 2), queue.take());
    }

    @Test
    void shouldWakeATakerParkedBeforeTheCallback() throws Exception {
        EngineQueue queue = new EngineQueue();
        CompletableFuture<EngineQueue.Signal> taken = new CompletableFuture<>();
        Thread taker = Thread.ofVirtual().start(() -> take(queue, taken, false));
        awaitParked(taker);

        queue.onError(ErrorKind.TIMEOUT, "late");

        assertEquals(new EngineQueue.Failed(ErrorKind.TIMEOUT, "late"), taken.get());
    }

    @Test
    void shouldHandABatchedTakerTheTokensQueuedBeforeTheEndThenTheEnd() throws Exception {
        EngineQueue queue = new EngineQueue();
        List<EngineQueue.Signal> seen = new ArrayList<>();
        CompletableFuture<EngineQueue.Signal> first = new CompletableFuture<>();
        Thread taker = Thread.ofVirtual().start(() -> take(queue, first, true));
        awaitParked(taker);

        queue.onText("a");
        queue.onText("b");
        queue.onFinished(FinishReason.LENGTH, 1, 2);

        seen.add(first.get());
        seen.add(queue.takeBatched());
        seen.add(queue.takeBatched());
        assertEquals(List.of(new EngineQueue.Token(EngineListener.UNKNOWN_TOKEN_ID, "a"),
            new EngineQueue.Token(EngineListener.UNKNOWN_TOKEN_ID, "b"),
            new EngineQueue.Finished(FinishReason.LENGTH, 1, 2)), seen);
    }

    @Test
    void shouldStopATakeWhenTheThreadIsInterrupted() throws Exception {
        EngineQueue queue = new EngineQueue();
        CompletableFuture<EngineQueue.Signal> taken = new CompletableFuture<>();
        Thread taker = Thread.ofVirtual().start(() -> take(queue, taken, true));
        awaitParked(taker);

        taker.interrupt();

        ExecutionException e = assertThrows(ExecutionException.class, taken::get);
        assertInstanceOf(InterruptedException.class, e.getCause());
    }

    @Test
    void shouldRefuseATakeOnAnInterruptedThreadEvenWithCallbacksQueued() {
        EngineQueue queue = new EngineQueue();
        queue.onToken(1);
        Thread.currentThread().interrupt();

        assertThrows(InterruptedException.class, queue::take);
    }

    private static void take(EngineQueue queue, CompletableFuture<EngineQueue.Signal> into, boolean batched) {
        try {
            into.complete(batched ? queue.takeBatched() : queue.take());
        } catch (InterruptedException e) {
            into.completeExceptionally(e);
        }
    }

    /** Waits until the taker is parked in the queue (an outcome, not a time). */
    private static void awaitParked(Thread taker) {
        while (taker.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
    }
}
