package dev.sluice.transport.frontend;

import java.time.Duration;
import java.util.Objects;

/**
 * When a worker's engine counts as unhealthy and how often it is probed afterwards (see {@link WorkerHealth}).
 *
 * @param failureThreshold consecutive engine failures that mark a worker unhealthy; 0 never marks one.
 * @param firstRetry       how long after turning unhealthy a worker is first probed.
 * @param maxRetry         the cap of the probe interval, which doubles after each failed probe.
 */
public record WorkerHealthSettings(int failureThreshold, Duration firstRetry, Duration maxRetry) {
    /** Three failures in a row; probes after 1 s, 2 s, 4 s, ... then every 30 s. */
    public static final WorkerHealthSettings DEFAULT = new WorkerHealthSettings(3, Duration.ofSeconds(1),
        Duration.ofSeconds(30));

    /** Never marks a worker unhealthy: every worker stays in the router whatever its engine does. */
    public static final WorkerHealthSettings OFF = new WorkerHealthSettings(0, Duration.ofSeconds(1),
        Duration.ofSeconds(30));

    /** @throws IllegalArgumentException a negative threshold, or retries not {@code 0 < firstRetry <= maxRetry}. */
    public WorkerHealthSettings {
        Objects.requireNonNull(firstRetry, "firstRetry");
        Objects.requireNonNull(maxRetry, "maxRetry");
        if (failureThreshold < 0) {
            throw new IllegalArgumentException("the engine failure threshold must be >= 0 (0: never mark an engine "
                + "unhealthy), was " + failureThreshold);
        }
        if (firstRetry.isZero() || firstRetry.isNegative() || maxRetry.compareTo(firstRetry) < 0) {
            throw new IllegalArgumentException("the engine retry backoff must be positive and its first retry at most "
                + "its maximum, was " + describe(firstRetry) + ".." + describe(maxRetry));
        }
    }

    /** {@code 2s} or {@code 500ms}, as the command line writes durations. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** True unless the threshold is 0. */
    public boolean enabled() {
        return failureThreshold > 0;
    }
}
