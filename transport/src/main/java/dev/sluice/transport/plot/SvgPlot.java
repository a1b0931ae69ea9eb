package dev.sluice.transport.plot;

import java.util.Locale;

/**
 * A {@link Chart} as a self-contained SVG document (no script, no external asset), fit to stand alone in a file or
 * inline in an HTML page. One instance renders one document.
 */
public final class SvgPlot implements PlotCanvas {
    private final StringBuilder svg = new StringBuilder(16 * 1024);

    private SvgPlot() {
    }

    /** The chart's SVG, ending with a newline. */
    public static String render(Chart chart) {
        SvgPlot plot = new SvgPlot();
        plot.svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                + "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\"><title>%s</title>%n"
                + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", chart.width(), chart.height(),
            chart.width(), chart.height(), escape(chart.title())));
        chart.draw(plot);
        return plot.svg.append("</svg>\n").toString();
    }

    /** {@code text} with {@code & < > "} escaped, for XML and HTML alike. */
    public static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
            + "%s%s/>%n", x1, y1, x2, y2, colour, strokeWidth(width), dash(dashed)));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int n, String colour, double width, boolean dashed) {
        StringBuilder points = new StringBuilder(n * 12);
        for (int i = 0; i < n; i++) {
            points.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "" : " ", xs[i], ys[i]));
        }
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\"%s%s points=\"%s\"/>%n", colour,
            strokeWidth(width), dash(dashed), points));
    }

    @Override
    public void rect(double x, double y, double width, double height, String fill, double opacity) {
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
            + "fill=\"%s\"%s/>%n", x, y, width, height, fill, opacity >= 1 ? ""
            : String.format(Locale.ROOT, " fill-opacity=\"%s\"", opacity)));
    }

    @Override
    public void text(double x, double y, String text, TextStyle style) {
        String anchor = switch (style.anchor()) {
            case START -> "";
            case MIDDLE -> " text-anchor=\"middle\"";
            case END -> " text-anchor=\"end\"";
        };
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" fill=\"%s\"%s%s%s>%s"
                + "</text>%n", x, y, style.size(), style.colour(), style.bold() ? " font-weight=\"600\"" : "", anchor,
            style.vertical() ? String.format(Locale.ROOT, " transform=\"rotate(-90 %.1f %.1f)\"", x, y) : "",
            escape(text)));
    }

    private static String strokeWidth(double width) {
        return width == 1 ? "" : String.format(Locale.ROOT, " stroke-width=\"%s\"", width);
    }

    private static String dash(boolean dashed) {
        return dashed ? " stroke-dasharray=\"5,3\"" : "";
    }
}
