package dev.sluice.perf.harness;

import java.util.List;
import java.util.Locale;

/**
 * A self-contained SVG percentile plot (no plotting library at hand): latency (µs, log scale) against percentile on
 * the usual {@code 1/(1-p)} log axis, from 0% to 99.999%, one line per trial. Pure function of its input.
 */
final class SvgPlot {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 480;
    private static final int LEFT = 70;
    private static final int BOTTOM = 50;
    private static final int TOP = 30;
    private static final int RIGHT = 190;
    private static final double MAX_NINES = 5;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

    private SvgPlot() {
    }

    static String render(List<TrialResult> results) {
        double minY = 0.1;
        double maxY = 10;
        for (TrialResult r : results) {
            maxY = Math.max(maxY, r.maxMicros());
        }
        double decades = Math.ceil(Math.log10(maxY / minY));
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "font-family=\"sans-serif\" font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
            WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\">Decision latency by "
            + "percentile (µs, log), 2-core machine</text>%n", LEFT));
        for (int n = 0; n <= MAX_NINES; n++) {
            double x = x(n);
            String label = n == 0 ? "0%" : String.format(Locale.ROOT, "%s%%", 100 - 100 / Math.pow(10, n));
            svg.append(line(x, TOP, x, HEIGHT - BOTTOM, "#ddd"));
            svg.append(text(x - 15, HEIGHT - BOTTOM + 15, label));
        }
        for (int d = 0; d <= decades; d++) {
            double y = y(minY * Math.pow(10, d), minY, decades);
            svg.append(line(LEFT, y, WIDTH - RIGHT, y, "#ddd"));
            svg.append(text(5, y + 4, String.format(Locale.ROOT, "%s µs", fmt(minY * Math.pow(10, d)))));
        }
        for (int i = 0; i < results.size(); i++) {
            TrialResult r = results.get(i);
            String colour = COLOURS[(i / 2) % COLOURS.length];
            String dash = r.target().equals("baseline") ? " stroke-dasharray=\"5,3\"" : "";
            StringBuilder points = new StringBuilder();
            for (int k = 0; k <= MAX_NINES * 20; k++) {
                double nines = k / 20.0;
                double percentile = 100 - 100 / Math.pow(10, nines);
                double value = Math.max(minY, r.histogram().getValueAtPercentile(percentile) / 1000.0);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(nines), y(value, minY, decades)));
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s "
                + "points=\"%s\"/>%n", colour, dash, points.toString().trim()));
            double legendY = TOP + 10 + i * 16;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                + "stroke-width=\"2\"%s/>%n", WIDTH - RIGHT + 10, legendY, WIDTH - RIGHT + 30, legendY, colour, dash));
            svg.append(text(WIDTH - RIGHT + 35, legendY + 4,
                String.format(Locale.ROOT, "%s %,d/s", r.target(), r.offeredPerSecond())));
        }
        return svg.append("</svg>\n").toString();
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

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
            x1, y1, x2, y2, colour);
    }

    private static String text(double x, double y, String s) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>%n", x, y, s);
    }
}
