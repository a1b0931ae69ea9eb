package dev.sluice.transport.cli;

import java.time.Duration;
import picocli.CommandLine;

/**
 * {@code --engine-retry-backoff FIRST..MAX} as written: the first probe interval and its cap, unchecked (the
 * health settings check them).
 */
record RetryBackoff(Duration first, Duration max) {
    /** {@code FIRST..MAX} in whole seconds or milliseconds, e.g. {@code 500ms..30s}. */
    @Override
    public String toString() {
        return describe(first) + ".." + describe(max);
    }

    private static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** Reads {@code 1s..30s}, or one duration for a fixed interval; each as {@link DurationConverter} reads it. */
    static final class Converter implements CommandLine.ITypeConverter<RetryBackoff> {
        private final DurationConverter durations = new DurationConverter();

        @Override
        public RetryBackoff convert(String value) {
            int dots = value.indexOf("..");
            try {
                if (dots < 0) {
                    Duration fixed = durations.convert(value);
                    return new RetryBackoff(fixed, fixed);
                }
                return new RetryBackoff(durations.convert(value.substring(0, dots)),
                    durations.convert(value.substring(dots + 2)));
            } catch (CommandLine.TypeConversionException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a backoff; expected "
                    + "FIRST..MAX, e.g. 1s..30s, or one duration, e.g. 5s");
            }
        }
    }
}
