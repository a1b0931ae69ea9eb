package dev.sluice.transport.plot;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * One axis of one chart, fitted to its data: the ticks (value and label) and the mapping of a value to a fraction
 * of the axis's length. Immutable.
 */
final class Scale {
    private final Axis axis;
    /** The axis's end: the value at the far end (linear), the decades (log), the nines (percentile). */
    private final double end;
    final double[] ticks;
    final String[] labels;

    private Scale(Axis axis, double end, double[] ticks, String[] labels) {
        this.axis = axis;
        this.end = end;
        this.ticks = ticks;
        this.labels = labels;
    }

    /**
     * Fits {@code axis} to data whose largest value is {@code max}. A linear x axis steps at round values up to a
     * whole number of steps; a linear y axis is five equal steps up to a round ceiling.
     */
    static Scale of(Axis axis, double max, boolean horizontal) {
        return switch (axis) {
            case Axis.Linear linear -> horizontal ? steps(linear, niceCeiling(Math.max(1, max) / 6), max)
                : divisions(linear, niceCeiling(Math.max(1, max)));
            case Axis.Log log -> decades(log, Math.ceil(Math.log10(Math.max(max, log.min() * 100) / log.min())));
            case Axis.Percentile percentile -> nines(percentile);
        };
    }

    /** Where {@code value} stands: 0 at the axis's origin, 1 at its end. */
    double fraction(double value) {
        return switch (axis) {
            case Axis.Linear linear -> value / end;
            case Axis.Log log -> Math.max(0, Math.log10(value / log.min()) / end);
            case Axis.Percentile percentile -> value / end;
        };
    }

    private static Scale steps(Axis.Linear axis, double step, double max) {
        int n = (int) Math.ceil(Math.max(1, max) / step);
        double[] ticks = new double[n + 1];
        String[] labels = new String[n + 1];
        for (int i = 0; i <= n; i++) {
            ticks[i] = step * i;
            labels[i] = number(ticks[i]);
        }
        return new Scale(axis, step * n, ticks, labels);
    }

    private static Scale divisions(Axis.Linear axis, double end) {
        double[] ticks = new double[6];
        String[] labels = new String[6];
        for (int i = 0; i <= 5; i++) {
            ticks[i] = end * i / 5;
            labels[i] = number(ticks[i]);
        }
        return new Scale(axis, end, ticks, labels);
    }

    private static Scale decades(Axis.Log axis, double decades) {
        int n = (int) decades;
        double[] ticks = new double[n + 1];
        String[] labels = new String[n + 1];
        for (int d = 0; d <= n; d++) {
            ticks[d] = axis.min() * Math.pow(10, d);
            labels[d] = (ticks[d] < 1 ? String.format(Locale.ROOT, "%.1f", ticks[d])
                : String.format(Locale.ROOT, "%,.0f", ticks[d])) + " " + axis.unit();
        }
        return new Scale(axis, decades, ticks, labels);
    }

    private static Scale nines(Axis.Percentile axis) {
        double[] ticks = new double[axis.nines() + 1];
        String[] labels = new String[axis.nines() + 1];
        for (int n = 0; n <= axis.nines(); n++) {
            ticks[n] = n;
            labels[n] = n == 0 ? "0%" : BigDecimal.valueOf(100 - 100 / Math.pow(10, n)).stripTrailingZeros()
                .toPlainString() + "%";
        }
        return new Scale(axis, axis.nines(), ticks, labels);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (value <= step * magnitude) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
