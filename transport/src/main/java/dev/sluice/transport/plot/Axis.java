package dev.sluice.transport.plot;

/**
 * How a {@link Chart} maps data values along one axis, and where it puts the ticks. A {@code title} of
 * {@code null} draws none. Immutable.
 */
public sealed interface Axis {
    /** The axis's title, or {@code null}. */
    String title();

    /** From 0 to a round value at or above the data's maximum (1 at least), ticks at round values. */
    record Linear(String title) implements Axis {
    }

    /**
     * Whole decades from {@code min} up to the data's maximum (two at least), ticks labelled with {@code unit};
     * values below {@code min} sit on the axis.
     */
    record Log(double min, String unit, String title) implements Axis {
        public Log {
            if (!(min > 0)) {
                throw new IllegalArgumentException("a log axis starts above 0, was " + min);
            }
        }
    }

    /**
     * Percentiles on HdrHistogram's axis, {@code log10(1 / (1 - p))}: 90%, 99%, 99.9%, ... equally spaced, from 0%
     * to {@code nines} nines (the data's x values are in nines).
     */
    record Percentile(int nines, String title) implements Axis {
        public Percentile {
            if (nines < 1) {
                throw new IllegalArgumentException("a percentile axis needs at least one nine, was " + nines);
            }
        }
    }
}
