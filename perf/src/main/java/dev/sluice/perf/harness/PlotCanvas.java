package dev.sluice.perf.harness;

/**
 * Where {@link PercentilePlot} draws: SVG text ({@link SvgPlot}) or a raster image ({@link PngPlot}). Pixels, origin
 * at the top left; a text's y is its baseline; colours are {@code #rrggbb}. Not thread-safe.
 */
interface PlotCanvas {
    void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed);

    /** A line through the first {@code n} points. */
    void polyline(double[] xs, double[] ys, int n, String colour, double width, boolean dashed);

    void text(double x, double y, String text, int size);
}
