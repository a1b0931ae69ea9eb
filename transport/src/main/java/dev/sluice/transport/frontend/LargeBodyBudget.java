package dev.sluice.transport.frontend;

import java.time.Duration;

/**
 * How much of the server large request bodies may use: a body over {@code thresholdBytes} (or of no declared length,
 * a chunked one) is read, parsed and tokenized only while it holds one of {@code permits}, waited for at most
 * {@code maxWait}; past it the request answers the overload status, {@code too_many_large_bodies}. A small request
 * never waits for one. So clients that send big prompts at once use at most {@code permits} threads' worth of CPU
 * (by default half the cores), and the rest stays for everyone else ({@code serve --large-body-bytes},
 * {@code --large-body-concurrency}).
 *
 * @param thresholdBytes a body of more bytes is large.
 * @param permits        large bodies handled at once, at least 1.
 * @param maxWait        the longest a large body waits for its turn.
 */
public record LargeBodyBudget(long thresholdBytes, int permits, Duration maxWait) {
    /** What a large body waits for its turn at most. */
    public static final Duration WAIT = Duration.ofSeconds(2);
    /** The default threshold: 64 KiB, a prompt of roughly 16 000 tokens. */
    public static final long DEFAULT_THRESHOLD_BYTES = 64 << 10;

    public LargeBodyBudget {
        if (thresholdBytes < 0) {
            throw new IllegalArgumentException("the large-body threshold must be >= 0, was " + thresholdBytes);
        }
        if (permits < 1) {
            throw new IllegalArgumentException("large bodies handled at once must be at least 1, was " + permits);
        }
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("the wait for a large body's turn must be >= 0, was " + maxWait);
        }
    }

    /** Half the cores this JVM may use, at least one. */
    public static int defaultPermits() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** 64 KiB, half the cores, 2 s. */
    public static LargeBodyBudget defaults() {
        return new LargeBodyBudget(DEFAULT_THRESHOLD_BYTES, defaultPermits(), WAIT);
    }
}
