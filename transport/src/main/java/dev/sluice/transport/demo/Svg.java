package dev.sluice.transport.demo;

import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Inline SVG charts for the HTML report, no script and no external asset: lines (and bars) on a linear y axis
 * with either a linear x axis or HdrHistogram's percentile axis ({@code log10(1 / (1 - p))}: 90%, 99%, 99.9% are
 * equally spaced). Stateless.
 */
final class Svg {
    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
    private static final int WIDTH = 560;
    private static final int HEIGHT = 300;
    private static final int LEFT = 60;
    private static final int RIGHT = 16;
    private static final int TOP = 30;
    private static final int BOTTOM = 44;
    private static final double MAX_PERCENTILE_X = 4;

    /** One line (or bar set) of a chart. */
    record Series(String name, String color, double[] x, double[] y, boolean bars) {
    }

    private Svg() {
    }

    /** A histogram's percentile distribution as a series: x on the percentile axis, y the value. */
    static Series percentiles(String name, String color, Histogram histogram) {
        int n = 0;
        double[] x = new double[512];
        double[] y = new double[512];
        for (HistogramIterationValue v : histogram.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100.0;
            double px = p >= 1 ? MAX_PERCENTILE_X : Math.min(MAX_PERCENTILE_X, Math.log10(1 / (1 - p)));
            if (n == x.length) {
                break;
            }
            x[n] = px;
            y[n++] = v.getValueIteratedTo();
            if (p >= 1) {
                break;
            }
        }
        return new Series(name, color, java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(y, n), false);
    }

    /** A chart; {@code percentileAxis} labels x as 0%, 90%, 99%, 99.9%, 99.99%. */
    static String chart(String title, String xLabel, String yLabel, List<Series> series, boolean percentileAxis) {
        double xMax = percentileAxis ? MAX_PERCENTILE_X : 1;
        double yMax = 1;
        for (Series s : series) {
            for (double v : s.x()) {
                xMax = Math.max(xMax, v);
            }
            for (double v : s.y()) {
                yMax = Math.max(yMax, v);
            }
        }
        yMax = niceCeiling(yMax);
        // Seconds read best on round ticks: a nice step, and the axis extended to a whole number of steps.
        double xStep = percentileAxis ? 1 : niceCeiling(xMax / 6);
        xMax = percentileAxis ? xMax : Math.ceil(xMax / xStep) * xStep;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            + " viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>", WIDTH, HEIGHT, WIDTH, HEIGHT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" class=\"t\">%s</text>", LEFT,
            escape(title)));
        axes(svg, xMax, (int) Math.round(xMax / xStep), yMax, percentileAxis, xLabel, yLabel);
        for (Series s : series) {
            plot(svg, s, xMax, yMax);
        }
        legend(svg, series);
        return svg.append("</svg>").toString();
    }

    private static void axes(StringBuilder svg, double xMax, int ticks, double yMax, boolean percentileAxis,
                             String xLabel, String yLabel) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        for (int i = 0; i <= 5; i++) {
            double value = yMax * i / 5;
            double y = TOP + plotH - plotH * i / 5.0;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
                + "<text x=\"%d\" y=\"%.1f\" class=\"a\" text-anchor=\"end\">%s</text>", LEFT, LEFT + plotW, y, y,
                LEFT - 6, y + 4, label(value)));
        }
        for (int i = 0; i <= ticks; i++) {
            double value = xMax * i / ticks;
            double x = LEFT + plotW * i / (double) ticks;
            String text = percentileAxis ? percentileLabel(i) : label(value);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"g\"/>"
                + "<text x=\"%.1f\" y=\"%d\" class=\"a\" text-anchor=\"middle\">%s</text>", x, x, TOP, TOP + plotH,
                x, TOP + plotH + 16, text));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"a\" text-anchor=\"middle\">%s</text>"
            + "<text x=\"14\" y=\"%d\" class=\"a\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>",
            LEFT + plotW / 2, HEIGHT - 8, escape(xLabel), TOP + plotH / 2, TOP + plotH / 2, escape(yLabel)));
    }

    private static void plot(StringBuilder svg, Series s, double xMax, double yMax) {
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        if (s.bars()) {
            double barW = Math.max(1, plotW / Math.max(1, xMax) * 0.8);
            for (int i = 0; i < s.x().length; i++) {
                double h = plotH * s.y()[i] / yMax;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"%s\" fill-opacity=\"0.6\"/>", LEFT + plotW * s.x()[i] / xMax - barW, TOP + plotH - h,
                    barW, h, s.color()));
            }
            return;
        }
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < s.x().length; i++) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + plotW * s.x()[i] / xMax,
                TOP + plotH - plotH * s.y()[i] / yMax));
        }
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\""
            + " points=\"%s\"/>", s.color(), points.toString().trim()));
    }

    private static void legend(StringBuilder svg, List<Series> series) {
        int y = TOP + 6;
        // A backdrop, so that lines passing under the legend do not cross its labels.
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"150\" height=\"%d\" fill=\"#fff\""
            + " fill-opacity=\"0.85\"/>", LEFT + 4, TOP + 1, series.size() * 15 + 6));
        for (Series s : series) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>"
                + "<text x=\"%d\" y=\"%d\" class=\"l\">%s</text>", LEFT + 10, y, s.color(), LEFT + 28, y + 6,
                escape(s.name())));
            y += 15;
        }
    }

    private static String percentileLabel(int tick) {
        return switch (tick) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            case 3 -> "99.9%";
            default -> "99.99%";
        };
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

    private static String label(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
