package dev.sluice.transport.demo;

import dev.sluice.core.router.RouterStatistics;
import java.io.Console;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples the clients' counters and the router's queue every 250 ms on its own thread: redraws a progress bar in
 * place ({@code \r}) on a terminal, or prints a line every 10 s otherwise, and appends one {@link Timeline} sample
 * per second. {@link #close} stops the thread, draws the last state and ends the line; the timeline is complete
 * once close returns. Idempotent.
 */
final class ProgressMonitor implements AutoCloseable {
    private static final long TICK_MS = 250;
    private static final int BAR_WIDTH = 30;

    private final ClientTally tally;
    private final Supplier<RouterStatistics> router;
    private final PrintStream out;
    private final boolean terminal;
    private final long startNs;
    private final long durationNs;
    private final Timeline timeline = new Timeline();
    private final Thread thread;
    private long lastRejected;
    private long lastCompleted;
    private int lastSecond;
    private boolean closed;

    ProgressMonitor(ClientTally tally, Supplier<RouterStatistics> router, PrintStream out, long startNs,
                    long durationNs) {
        this.tally = tally;
        this.router = router;
        this.out = out;
        this.terminal = isTerminal();
        this.startNs = startNs;
        this.durationNs = durationNs;
        this.thread = Thread.ofPlatform().daemon().name("sluice-demo-progress").start(this::loop);
    }

    /**
     * True when stdout is an interactive terminal. JDK 22+ returns a console even when the streams are
     * redirected, so its {@code isTerminal()} (absent from the Java 21 API) decides when present.
     */
    static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    Timeline timeline() {
        return timeline;
    }

    private void loop() {
        long nextLine = 10;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                TimeUnit.MILLISECONDS.sleep(TICK_MS);
                long elapsedS = (System.nanoTime() - startNs) / 1_000_000_000L;
                sample(elapsedS);
                if (terminal) {
                    out.print("\r" + line());
                    out.flush();
                } else if (elapsedS >= nextLine) {
                    out.println("  " + line());
                    nextLine += 10;
                }
            }
        } catch (InterruptedException e) {
            // close() stops the loop.
        }
    }

    private synchronized void sample(long elapsedS) {
        while (lastSecond < elapsedS) {
            RouterStatistics stats = router.get();
            long rejected = tally.rejected.get();
            long completed = tally.completed.get();
            timeline.add(new Timeline.Sample(++lastSecond, tally.inFlight.get(), stats.queued(), stats.parkedNow(),
                rejected - lastRejected, completed - lastCompleted));
            lastRejected = rejected;
            lastCompleted = completed;
        }
    }

    private String line() {
        double elapsed = (System.nanoTime() - startNs) / 1e9;
        double fraction = Math.min(1.0, elapsed * 1e9 / durationNs);
        int filled = (int) Math.round(fraction * BAR_WIDTH);
        return String.format("[%s%s] %3.0f/%.0f s  sent %d  in flight %d  completed %d  rejected %d  left %d",
            "#".repeat(filled), ".".repeat(BAR_WIDTH - filled), Math.min(elapsed, durationNs / 1e9),
            durationNs / 1e9, tally.sent.get(), tally.inFlight.get(), tally.completed.get(), tally.rejected.get(),
            tally.left.get());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            // Keep the caller's interrupt; the sample below is taken under the monitor lock all the same.
            Thread.currentThread().interrupt();
        }
        sample((System.nanoTime() - startNs + 999_999_999L) / 1_000_000_000L);
        out.print((terminal ? "\r" : "  ") + line() + System.lineSeparator());
        out.flush();
    }
}
