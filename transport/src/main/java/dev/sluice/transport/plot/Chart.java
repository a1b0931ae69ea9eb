package dev.sluice.transport.plot;

import dev.sluice.transport.plot.PlotCanvas.Anchor;
import dev.sluice.transport.plot.PlotCanvas.TextStyle;
import java.util.List;
import java.util.Objects;

/**
 * A chart: a title, two {@link Axis axes} with their grid, lines and bars ({@link Series}) and a legend, laid out
 * in pixels and drawn onto any {@link PlotCanvas}: {@link SvgPlot} for a report page, {@link PngPlot} for an
 * image. The demo's HTML report and perf's latency plot are both charts. Set fluently, then drawn; not thread-safe.
 */
public final class Chart {
    private static final TextStyle TITLE = new TextStyle(13, "#222222", true, Anchor.START, false);
    private static final TextStyle TICK_X = new TextStyle(11, "#444444", false, Anchor.MIDDLE, false);
    private static final TextStyle TICK_Y = new TextStyle(11, "#444444", false, Anchor.END, false);
    private static final TextStyle AXIS_X = new TextStyle(11, "#444444", false, Anchor.MIDDLE, false);
    private static final TextStyle AXIS_Y = new TextStyle(11, "#444444", false, Anchor.MIDDLE, true);
    private static final TextStyle LEGEND = new TextStyle(11, "#222222", false, Anchor.START, false);
    private static final String GRID = "#eeeeee";

    private final int width;
    private final int height;
    private int left = 60;
    private int right = 16;
    private int top = 30;
    private int bottom = 44;
    private String title = "";
    private Axis x = new Axis.Linear(null);
    private Axis y = new Axis.Linear(null);
    private List<Series> series = List.of();
    private boolean legendRight;
    private double lineWidth = 2;

    private Chart(int width, int height) {
        this.width = width;
        this.height = height;
    }

    /** A chart of this size in pixels; margins 60, 16, 30 and 44 (left, right, top, bottom) until set. */
    public static Chart of(int width, int height) {
        return new Chart(width, height);
    }

    /** Room around the plot area for the tick labels, the axis titles and (on the right) the legend. */
    public Chart margins(int leftPx, int rightPx, int topPx, int bottomPx) {
        this.left = leftPx;
        this.right = rightPx;
        this.top = topPx;
        this.bottom = bottomPx;
        return this;
    }

    public Chart title(String text) {
        this.title = Objects.requireNonNull(text, "title");
        return this;
    }

    public Chart x(Axis axis) {
        this.x = Objects.requireNonNull(axis, "x");
        return this;
    }

    public Chart y(Axis axis) {
        this.y = Objects.requireNonNull(axis, "y");
        return this;
    }

    public Chart series(List<Series> lines) {
        this.series = List.copyOf(lines);
        return this;
    }

    /** The legend in the right margin, one entry a row, rather than over the plot's top left corner. */
    public Chart legendRight() {
        this.legendRight = true;
        return this;
    }

    /** The width of the series' lines (2 px unless set). */
    public Chart lineWidth(double px) {
        this.lineWidth = px;
        return this;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public String title() {
        return title;
    }

    /** Draws the whole chart onto {@code canvas}, which is {@link #width()} by {@link #height()}. */
    public void draw(PlotCanvas canvas) {
        double maxX = 0;
        double maxY = 0;
        for (Series s : series) {
            for (double v : s.x()) {
                maxX = Math.max(maxX, v);
            }
            for (double v : s.y()) {
                maxY = Math.max(maxY, v);
            }
        }
        Scale xs = Scale.of(x, maxX, true);
        Scale ys = Scale.of(y, maxY, false);
        canvas.text(left, 18, title, TITLE);
        axes(canvas, xs, ys);
        for (Series s : series) {
            plot(canvas, s, xs, ys);
        }
        legend(canvas);
    }

    private void axes(PlotCanvas canvas, Scale xs, Scale ys) {
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        for (int i = 0; i < ys.ticks.length; i++) {
            double py = top + plotH - plotH * ys.fraction(ys.ticks[i]);
            canvas.line(left, py, left + plotW, py, GRID, 1, false);
            canvas.text(left - 6, py + 4, ys.labels[i], TICK_Y);
        }
        for (int i = 0; i < xs.ticks.length; i++) {
            double px = left + plotW * xs.fraction(xs.ticks[i]);
            canvas.line(px, top, px, top + plotH, GRID, 1, false);
            canvas.text(px, top + plotH + 16, xs.labels[i], TICK_X);
        }
        if (x.title() != null) {
            canvas.text(left + plotW / 2.0, height - 8, x.title(), AXIS_X);
        }
        if (y.title() != null) {
            canvas.text(14, top + plotH / 2.0, y.title(), AXIS_Y);
        }
    }

    private void plot(PlotCanvas canvas, Series s, Scale xs, Scale ys) {
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        int n = s.x().length;
        if (s.bars()) {
            double barW = Math.max(1, plotW * (xs.fraction(1) - xs.fraction(0)) * 0.8);
            for (int i = 0; i < n; i++) {
                double h = plotH * ys.fraction(s.y()[i]);
                canvas.rect(left + plotW * xs.fraction(s.x()[i]) - barW, top + plotH - h, barW, h, s.colour(), 0.6);
            }
            return;
        }
        double[] px = new double[n];
        double[] py = new double[n];
        for (int i = 0; i < n; i++) {
            px[i] = left + plotW * xs.fraction(s.x()[i]);
            py[i] = top + plotH - plotH * ys.fraction(s.y()[i]);
        }
        canvas.polyline(px, py, n, s.colour(), lineWidth, s.dashed());
    }

    private void legend(PlotCanvas canvas) {
        if (legendRight) {
            for (int i = 0; i < series.size(); i++) {
                double ly = top + 10 + i * 16;
                canvas.line(width - right + 10, ly, width - right + 30, ly, series.get(i).colour(), 2,
                    series.get(i).dashed());
                canvas.text(width - right + 35, ly + 4, series.get(i).name(), LEGEND);
            }
            return;
        }
        // A backdrop, so that lines passing under the legend do not cross its labels.
        canvas.rect(left + 4, top + 1, 150, series.size() * 15 + 6, "#ffffff", 0.85);
        double ly = top + 8;
        for (Series s : series) {
            canvas.line(left + 10, ly, left + 22, ly, s.colour(), 4, s.dashed());
            canvas.text(left + 28, ly + 4, s.name(), LEGEND);
            ly += 15;
        }
    }
}
