package dev.sluice.transport.demo;

import dev.sluice.core.audit.RequestFigures;
import dev.sluice.transport.plot.Axis;
import dev.sluice.transport.plot.Chart;
import dev.sluice.transport.plot.Series;
import dev.sluice.transport.plot.SvgPlot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link DemoResult} as one self-contained HTML file (inline CSS and SVG, no script, no external asset):
 * the summary tables with the figures' definitions, TTFT and queue-wait percentile plots per class (the router's,
 * as {@code journal stats} computes them), the run's time series and the configuration. Stateless.
 */
final class HtmlReport {
    private static final String STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;"
        + "max-width:1180px}"
        + "h1{font-size:22px}h2{font-size:17px;margin-top:28px}table{border-collapse:collapse;margin:8px 0}"
        + "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}"
        + "td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:12px}"
        + "svg{border:1px solid #ddd;background:#fff}"
        + "table.txt td{text-align:left}.ok{color:#070}.bad{color:#b00}"
        + "code{background:#f3f3f3;padding:1px 4px}";

    private static final int CHART_WIDTH = 560;
    private static final int CHART_HEIGHT = 300;
    /** Nines of the latency charts' percentile axis: up to 99.99%. */
    private static final int NINES = 4;
    /** The figures' histograms are in microseconds; the charts in milliseconds. */
    private static final double MS_PER_US = 0.001;

    private HtmlReport() {
    }

    /** Writes the report, creating the parent directories; the file is replaced if it exists. */
    static void write(DemoResult result, Path file, Path journal) throws IOException {
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>sluice demo report</title>")
            .append("<style>").append(STYLE).append("</style></head><body>");
        html.append("<h1>sluice demo: admission control over HTTP on a simulated fleet</h1>");
        html.append("<p class=\"").append(result.balanced() ? "ok" : "bad").append("\">")
            .append(SvgPlot.escape(result.accounting())).append("</p>");
        summary(html, result);
        charts(html, result);
        html.append("<h2>Configuration</h2><table class=\"txt\">");
        result.configuration().forEach((label, value) -> row(html, "td", label, value));
        html.append("</table>");
        if (journal != null) {
            html.append("<p>Journal: <code>").append(SvgPlot.escape(journal.toString()))
                .append("</code> — inspect it with"
                + " <code>scripts/sluice journal show|stats|verify DIR</code>.</p>");
        }
        html.append("</body></html>\n");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    private static void summary(StringBuilder html, DemoResult result) {
        html.append("<h2>Per policy class</h2><table>");
        row(html, "th", "class", "sent", "queued", "admitted", "deferred", "parked", "completed", "rejected",
            "aborted", "failed", "queue wait p50 / p99", "TTFT p50 / p99");
        List<ClassRow> rows = new ArrayList<>(result.classes());
        rows.add(result.total());
        for (ClassRow r : rows) {
            RequestFigures.ClassFigures f = r.router;
            row(html, "td", r.name, r.sent, f.queued(), f.admitted(), f.deferred(), f.parked(),
                r.count(RequestFigures.Outcome.COMPLETED), r.rejected(), r.count(RequestFigures.Outcome.ABORTED),
                r.failed, RequestFigures.percentiles(f.queueWaitUs()), RequestFigures.percentiles(f.ttftUs()));
        }
        html.append("</table><ul>");
        for (String line : SummaryPrinter.definitions()) {
            html.append("<li>").append(SvgPlot.escape(line)).append("</li>");
        }
        html.append("</ul><h2>Rejections by reason (status)</h2><table class=\"txt\">");
        row(html, "th", "reason (status)", "count", "by class");
        for (Map.Entry<String, Map<String, Long>> e : result.rejectionsByReason().entrySet()) {
            row(html, "td", e.getKey(), SummaryPrinter.sum(e.getValue()), SummaryPrinter.text(e.getValue()));
        }
        html.append("</table><table>");
        row(html, "td", "throughput", String.format("%.1f completed requests/s over %.1f s", result.throughput(),
            result.wallNs() / 1e9));
        row(html, "td", "prefix-cache hit rate", String.format("%.1f%% of prompt tokens (mean over workers)",
            result.hitRate() * 100));
        row(html, "td", "preemptions (KV cache full)", result.preemptions());
        row(html, "td", "queue deadlines expired", result.stats().expired());
        html.append("</table>");
    }

    private static void charts(StringBuilder html, DemoResult result) {
        List<Series> ttft = new ArrayList<>();
        List<Series> wait = new ArrayList<>();
        for (int i = 0; i < result.classes().size(); i++) {
            ClassRow r = result.classes().get(i);
            String colour = Series.colour(i);
            if (r.router.ttftUs().getTotalCount() > 0) {
                ttft.add(Series.percentiles(r.name, colour, r.router.ttftUs(), NINES, MS_PER_US, false));
            }
            if (r.router.queueWaitUs().getTotalCount() > 0) {
                wait.add(Series.percentiles(r.name, colour, r.router.queueWaitUs(), NINES, MS_PER_US, false));
            }
        }
        Axis percentile = new Axis.Percentile(NINES, "percentile");
        html.append("<h2>Latency by percentile</h2><div class=\"charts\">")
            .append(chart("TTFT (router: ingress to first response item)", percentile, "ms", ttft))
            .append(chart("Queue wait (router: enqueue to dispatch)", percentile, "ms", wait))
            .append("</div><h2>Over time</h2><div class=\"charts\">");
        List<Timeline.Sample> samples = result.timeline().samples();
        int n = samples.size();
        double[] x = new double[n];
        double[] inFlight = new double[n];
        double[] queued = new double[n];
        double[] parked = new double[n];
        double[] rejected = new double[n];
        double[] completed = new double[n];
        for (int i = 0; i < n; i++) {
            Timeline.Sample s = samples.get(i);
            x[i] = s.second();
            inFlight[i] = s.inFlight();
            queued[i] = s.queued();
            parked[i] = s.parked();
            rejected[i] = s.rejected();
            completed[i] = s.completed();
        }
        Axis seconds = new Axis.Linear("seconds");
        html.append(chart("Requests in flight, queued and parked", seconds, "requests", List.of(
                Series.line("in flight (clients)", Series.colour(0), x, inFlight),
                Series.line("queued (router)", Series.colour(1), x, queued),
                Series.line("parked (router)", Series.colour(4), x, parked))))
            .append(chart("Completions and rejections per second", seconds, "per second", List.of(
                Series.line("completed", Series.colour(2), x, completed),
                Series.bars("rejected", Series.colour(1), x, rejected))))
            .append("</div>");
    }

    /** One inline chart of the report. */
    private static String chart(String title, Axis x, String yTitle, List<Series> series) {
        return SvgPlot.render(Chart.of(CHART_WIDTH, CHART_HEIGHT).title(title).x(x).y(new Axis.Linear(yTitle))
            .series(series));
    }

    private static void row(StringBuilder html, String cell, Object... values) {
        html.append("<tr>");
        for (Object v : values) {
            html.append('<').append(cell).append('>').append(SvgPlot.escape(String.valueOf(v))).append("</")
                .append(cell).append('>');
        }
        html.append("</tr>");
    }
}
