package dev.sluice.perf.harness;

import java.util.List;
import java.util.Locale;

/**
 * The percentile plot's layout, drawn onto any {@link PlotCanvas}: latency (µs, log scale) against percentile on the
 * usual {@code 1/(1-p)} log axis, from 0% to 99.999%, one line per trial (baseline dashed), a legend on the right.
 * Stateless.
 */
final class PercentilePlot {
    static final int WIDTH = 800;
    static final int HEIGHT = 480;
    private static final int LEFT = 70;
    private static final int BOTTOM = 50;
    private static final int TOP = 30;
    private static final int RIGHT = 190;
    private static final double MAX_NINES = 5;
    private static final int STEPS_PER_NINE = 20;
    private static final String GRID = "#dddddd";
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

    private PercentilePlot() {
    }

    static void draw(List<TrialResult> results, PlotCanvas canvas) {
        double minY = 0.1;
        double maxY = 10;
        for (TrialResult r : results) {
            maxY = Math.max(maxY, r.maxMicros());
        }
        double decades = Math.ceil(Math.log10(maxY / minY));
        canvas.text(LEFT, 18, String.format(Locale.ROOT, "Decision latency by percentile (µs, log), %d-core machine",
            Runtime.getRuntime().availableProcessors()), 13);
        for (int n = 0; n <= MAX_NINES; n++) {
            double x = x(n);
            String label = n == 0 ? "0%" : String.format(Locale.ROOT, "%s%%", 100 - 100 / Math.pow(10, n));
            canvas.line(x, TOP, x, HEIGHT - BOTTOM, GRID, 1, false);
            canvas.text(x - 15, HEIGHT - BOTTOM + 15, label, 11);
        }
        for (int d = 0; d <= decades; d++) {
            double y = y(minY * Math.pow(10, d), minY, decades);
            canvas.line(LEFT, y, WIDTH - RIGHT, y, GRID, 1, false);
            canvas.text(5, y + 4, String.format(Locale.ROOT, "%s µs", fmt(minY * Math.pow(10, d))), 11);
        }
        int points = (int) (MAX_NINES * STEPS_PER_NINE) + 1;
        double[] xs = new double[points];
        double[] ys = new double[points];
        for (int i = 0; i < results.size(); i++) {
            TrialResult r = results.get(i);
            String colour = COLOURS[(i / 2) % COLOURS.length];
            boolean dashed = r.target().equals("baseline");
            for (int k = 0; k < points; k++) {
                double nines = (double) k / STEPS_PER_NINE;
                double percentile = 100 - 100 / Math.pow(10, nines);
                double value = Math.max(minY, r.histogram().getValueAtPercentile(percentile) / 1000.0);
                xs[k] = x(nines);
                ys[k] = y(value, minY, decades);
            }
            canvas.polyline(xs, ys, points, colour, 1.5, dashed);
            double legendY = TOP + 10 + i * 16;
            canvas.line(WIDTH - RIGHT + 10, legendY, WIDTH - RIGHT + 30, legendY, colour, 2, dashed);
            canvas.text(WIDTH - RIGHT + 35, legendY + 4,
                String.format(Locale.ROOT, "%s %,d/s", r.target(), r.offeredPerSecond()), 11);
        }
    }

    private static double x(double nines) {
        return LEFT + nines / MAX_NINES * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double micros, double minY, double decades) {
        double frac = Math.log10(micros / minY) / decades;
        return HEIGHT - BOTTOM - frac * (HEIGHT - BOTTOM - TOP);
    }

    private static String fmt(double v) {
        return v < 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%,.0f", v);
    }
}
