package dev.sluice.perf.harness;

import java.util.List;
import java.util.Locale;

/** The {@link PercentilePlot} as a self-contained SVG document. One instance renders one document. */
final class SvgPlot implements PlotCanvas {
    private final StringBuilder svg = new StringBuilder();

    private SvgPlot() {
    }

    static String render(List<TrialResult> results) {
        SvgPlot plot = new SvgPlot();
        plot.svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            + "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" "
            + "fill=\"white\"/>%n", PercentilePlot.WIDTH, PercentilePlot.HEIGHT));
        PercentilePlot.draw(results, plot);
        return plot.svg.append("</svg>\n").toString();
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
            + "%s%s/>%n", x1, y1, x2, y2, colour, strokeWidth(width), dash(dashed)));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int n, String colour, double width, boolean dashed) {
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < n; i++) {
            points.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "" : " ", xs[i], ys[i]));
        }
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\"%s%s points=\"%s\"/>%n", colour,
            strokeWidth(width), dash(dashed), points));
    }

    @Override
    public void text(double x, double y, String text, int size) {
        String font = size == 11 ? "" : String.format(Locale.ROOT, " font-size=\"%d\"", size);
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\"%s>%s</text>%n", x, y, font, text));
    }

    private static String strokeWidth(double width) {
        return width == 1 ? "" : String.format(Locale.ROOT, " stroke-width=\"%s\"", width);
    }

    private static String dash(boolean dashed) {
        return dashed ? " stroke-dasharray=\"5,3\"" : "";
    }
}
