package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.TestTokenizers;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Native tokenizer calls leave virtual threads for the registry's platform threads; platform threads call directly. */
class NativeCallsTest {
    @Test
    void shouldRunAVirtualThreadsCallOnATokenizerThread() throws Exception {
        try (NativeCalls calls = NativeCalls.platformThreads()) {
            Thread runner = onVirtualThread(() -> calls.call(Thread::currentThread));
            assertFalse(runner.isVirtual());
            assertTrue(runner.getName().startsWith("sluice-tokenizer-"), runner.getName());
            assertSame(Thread.currentThread(), calls.call(Thread::currentThread), "a platform thread calls directly");
            assertTrue(onVirtualThread(() -> NativeCalls.DIRECT.call(Thread::currentThread)).isVirtual());
        }
    }

    @Test
    void shouldFinishTheCallKeepTheInterruptAndPassFailuresOn() throws Exception {
        try (NativeCalls calls = NativeCalls.platformThreads()) {
            boolean[] interruptedAfter = new boolean[1];
            String result = onVirtualThread(() -> {
                Thread.currentThread().interrupt();
                String value = calls.call(() -> "done");
                interruptedAfter[0] = Thread.currentThread().isInterrupted();
                return value;
            });
            assertEquals("done", result);
            assertTrue(interruptedAfter[0]);
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> onVirtualThread(
                () -> calls.call(() -> {
                    throw new IllegalArgumentException("bad text");
                })));
            assertEquals("bad text", failure.getMessage());
        }
    }

    @Test
    void shouldTokenizeForAVirtualThreadOnTheRegistrysThreads() throws Exception {
        // Tokenizer threads of other tests' closed pools end once idle; none may be mistaken for the registry's.
        Await.until("no tokenizer thread left", () -> !tokenizerThreadAlive());
        try (TokenizerRegistry registry = new TokenizerRegistry()) {
            HfPromptEncoder qwen3 = registry.load(TestTokenizers.qwen3());
            int[] direct = qwen3.tokenize("Hello, world!", true);
            assertArrayEquals(direct, onVirtualThread(() -> qwen3.tokenize("Hello, world!", true)));
            assertTrue(tokenizerThreadAlive(), "the registry's tokenizer thread ran the call");
        }
        Await.until("the registry's tokenizer threads stopped with it", () -> !tokenizerThreadAlive());
    }

    private static boolean tokenizerThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("sluice-tokenizer-"));
    }

    /** The task's result, computed on a new virtual thread; its exception rethrown. */
    private static <T> T onVirtualThread(Callable<T> task) throws Exception {
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            try {
                return virtual.submit(task).get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }
}
