package dev.sluice.transport.engine.telemetry;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether and how often remote engines' {@code /metrics} are read.
 *
 * @param interval           between the end of one scrape and the start of the next; {@link Duration#ZERO}: never.
 * @param timeout            to connect, and again to receive the whole answer.
 * @param capacityFromEngine whether an engine's published KV size replaces the configured capacity (false when the
 *                           operator gave the capacity, which then wins).
 */
public record EngineMetricsSettings(Duration interval, Duration timeout, boolean capacityFromEngine) {
    /** No scraping. */
    public static final EngineMetricsSettings OFF = new EngineMetricsSettings(Duration.ZERO, Duration.ofSeconds(5),
        false);

    public EngineMetricsSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        if (interval.isNegative()) {
            throw new IllegalArgumentException("the metrics interval must be >= 0 (0: off), was " + interval);
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("the metrics timeout must be positive, was " + timeout);
        }
    }

    public boolean enabled() {
        return !interval.isZero();
    }
}
