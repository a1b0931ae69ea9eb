package dev.sluice.transport.plot;

import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One line or bar set of a {@link Chart}, in data units. The arrays are the caller's: do not change them once the
 * series is made.
 *
 * @param name   the legend's label.
 * @param colour {@code #rrggbb}; {@link #colour(int)} picks one from the palette.
 * @param x      the points' x values.
 * @param y      their y values.
 * @param bars   bars from the x axis up to each point rather than a line through them.
 * @param dashed a dashed line (and legend swatch).
 */
public record Series(String name, String colour, double[] x, double[] y, boolean bars, boolean dashed) {
    private static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#17becf"};
    /** Percentile points per nine (90%, 99%, ...): smooth lines without thousands of points. */
    private static final int STEPS_PER_NINE = 20;

    public Series {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(colour, "colour");
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
        }
    }

    /** A solid line through the points. */
    public static Series line(String name, String colour, double[] x, double[] y) {
        return new Series(name, colour, x, y, false, false);
    }

    /** Bars from the x axis up to each point. */
    public static Series bars(String name, String colour, double[] x, double[] y) {
        return new Series(name, colour, x, y, true, false);
    }

    /**
     * A histogram's distribution for an {@link Axis.Percentile} x axis of {@code nines}: the value at each
     * percentile up to the axis's last, times {@code scale} (ns to µs, say), then the maximum at the right edge.
     */
    public static Series percentiles(String name, String colour, Histogram histogram, int nines, double scale,
                                     boolean dashed) {
        int n = nines * STEPS_PER_NINE + 1;
        double[] x = new double[n + 1];
        double[] y = new double[n + 1];
        for (int k = 0; k < n; k++) {
            x[k] = (double) k / STEPS_PER_NINE;
            y[k] = histogram.getValueAtPercentile(100 - 100 / Math.pow(10, x[k])) * scale;
        }
        x[n] = nines;
        y[n] = histogram.getMaxValue() * scale;
        return new Series(name, colour, x, y, false, dashed);
    }

    /** The palette's {@code i}-th colour, round again past its end. */
    public static String colour(int i) {
        return PALETTE[Math.floorMod(i, PALETTE.length)];
    }
}
