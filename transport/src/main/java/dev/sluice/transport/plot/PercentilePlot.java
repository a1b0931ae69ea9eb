package dev.sluice.transport.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * The latency-by-percentile chart of perf's report: one line per histogram on the percentile axis from 0% to
 * 99.999%, latency in microseconds on a log axis from 0.1 µs, the legend on the right. Stateless.
 */
public final class PercentilePlot {
    public static final int WIDTH = 800;
    public static final int HEIGHT = 480;
    private static final int NINES = 5;

    /**
     * One line.
     *
     * @param label  the legend's label.
     * @param nanos  the latencies, in nanoseconds.
     * @param colour the palette index ({@link Series#colour(int)}): lines that belong together share one.
     * @param dashed dashed (a baseline beside what it is compared with).
     */
    public record Line(String label, Histogram nanos, int colour, boolean dashed) {
        public Line {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(nanos, "nanos");
        }
    }

    private PercentilePlot() {
    }

    /** The chart of {@code lines}, in order, under {@code title}. */
    public static Chart chart(String title, List<Line> lines) {
        List<Series> series = new ArrayList<>(lines.size());
        for (Line line : lines) {
            series.add(Series.percentiles(line.label(), Series.colour(line.colour()), line.nanos(), NINES, 1e-3,
                line.dashed()));
        }
        return Chart.of(WIDTH, HEIGHT).margins(90, 190, 30, 50).title(title).x(new Axis.Percentile(NINES, null))
            .y(new Axis.Log(0.1, "µs", null)).series(series).legendRight().lineWidth(1.5);
    }
}
