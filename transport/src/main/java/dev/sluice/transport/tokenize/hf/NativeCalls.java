package dev.sluice.transport.tokenize.hf;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Runs native tokenizer calls for virtual threads on platform threads of its own. A virtual thread in a JNI call
 * cannot unmount: it holds its carrier, one of as many as there are cores, for the whole call (about a millisecond
 * per 4 KB of prompt), and the frontend's other virtual threads wait for a carrier meanwhile. Handed here, the call
 * runs on a tokenizer thread while the virtual thread parks and frees its carrier. A platform thread calls directly.
 *
 * <p>One daemon platform thread per core, shared by the models of a {@link TokenizerRegistry}. Thread-safe;
 * {@link #close} stops the threads (calls already handed over finish) and is idempotent.
 */
final class NativeCalls implements AutoCloseable {
    /** Calls on the caller's thread, whatever it is: for a tokenizer used outside a registry. */
    static final NativeCalls DIRECT = new NativeCalls(null);

    private final ExecutorService threads;

    private NativeCalls(ExecutorService threads) {
        this.threads = threads;
    }

    /** Platform threads named {@code sluice-tokenizer-N}, one per available core. */
    static NativeCalls platformThreads() {
        return new NativeCalls(Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(),
            Thread.ofPlatform().daemon().name("sluice-tokenizer-", 0).factory()));
    }

    /**
     * The call's result, computed on a tokenizer thread when the caller is a virtual thread. An interrupt while
     * waiting does not abandon the call (it takes milliseconds); the interrupt is kept for the caller.
     */
    <T> T call(Supplier<T> call) {
        if (threads == null || !Thread.currentThread().isVirtual()) {
            return call.get();
        }
        Future<T> result = threads.submit(call::get);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException runtime ? runtime
                        : new IllegalStateException("the tokenizer failed", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.shutdown();
        }
    }
}
