package dev.sluice.transport.plot;

/**
 * Where a {@link Chart} draws: SVG text ({@link SvgPlot}) or a raster image ({@link PngPlot}). Pixels, origin at the
 * top left; a text's y is its baseline; colours are {@code #rrggbb}. One canvas draws one chart; not thread-safe.
 */
public interface PlotCanvas {
    /** Where a text stands relative to its x. */
    enum Anchor { START, MIDDLE, END }

    /**
     * How a text is drawn.
     *
     * @param size     font size in pixels.
     * @param colour   fill colour.
     * @param bold     semi-bold rather than regular.
     * @param anchor   alignment on its x.
     * @param vertical turned a quarter anticlockwise about its anchor point (a y-axis title).
     */
    record TextStyle(int size, String colour, boolean bold, Anchor anchor, boolean vertical) {
    }

    void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed);

    /** A line through the first {@code n} points. */
    void polyline(double[] xs, double[] ys, int n, String colour, double width, boolean dashed);

    /** A filled rectangle; {@code opacity} from 0 (invisible) to 1. */
    void rect(double x, double y, double width, double height, String fill, double opacity);

    void text(double x, double y, String text, TextStyle style);
}
