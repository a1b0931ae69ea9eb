package dev.sluice.transport.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.journal.JournalException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that the per-class rows a demo printed are the figures {@code journal stats} computes from the journal the
 * same run wrote: every count, the queue-wait and TTFT percentiles, and the rejections by reason.
 */
final class FiguresAgreement {
    private static final String LATENCY = "(-|[0-9.]+/[0-9.]+ ms)";

    private FiguresAgreement() {
    }

    /** The figures of a demo row, in the order {@link #expected} lists them. */
    record Row(String name, List<String> figures) {
    }

    /** The HTTP demo's rows: class, sent, queued, admitted, deferred, parked, completed, rejected, aborted, ... */
    static List<Row> httpRows(String output) {
        Pattern row = Pattern.compile("^    (\\S.*?) +\\d+ +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+)"
            + " +\\d+ +" + LATENCY + " +" + LATENCY + "$");
        return rows(output, row, "queued", "admitted", "deferred", "parked", "completed", "rejected", "aborted",
            "queue wait", "ttft");
    }

    /** The in-process demo's rows: class, arrived, queued, admitted, completed, rejected, aborted, wait, TTFT. */
    static List<Row> inProcessRows(String output) {
        Pattern row = Pattern.compile("^ {15}(\\S.*?) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +" + LATENCY
            + " +" + LATENCY + "$");
        return rows(output, row, "arrived", "queued", "admitted", "completed", "rejected", "aborted", "queue wait",
            "ttft");
    }

    private static List<Row> rows(String output, Pattern pattern, String... columns) {
        List<Row> rows = new ArrayList<>();
        for (String line : output.split("\n")) {
            Matcher m = pattern.matcher(line.stripTrailing());
            if (m.matches()) {
                List<String> figures = new ArrayList<>();
                for (int g = 0; g < columns.length; g++) {
                    figures.add(columns[g] + "=" + m.group(g + 2));
                }
                rows.add(new Row(m.group(1), figures));
            }
        }
        return rows;
    }

    /** What {@code journal stats} says of one class, as the demo rows name the columns. */
    private static String expected(RequestFigures.ClassFigures f, String column) {
        return column + "=" + switch (column) {
            case "arrived" -> f.arrived();
            case "queued" -> f.queued();
            case "admitted" -> f.admitted();
            case "deferred" -> f.deferred();
            case "parked" -> f.parked();
            case "completed" -> f.count(RequestFigures.Outcome.COMPLETED);
            case "rejected" -> f.count(RequestFigures.Outcome.REJECTED);
            case "aborted" -> f.count(RequestFigures.Outcome.ABORTED);
            case "queue wait" -> RequestFigures.percentiles(f.queueWaitUs());
            case "ttft" -> RequestFigures.percentiles(f.ttftUs());
            default -> throw new IllegalArgumentException(column);
        };
    }

    /**
     * Asserts that {@code rows} (the demo's, with an {@code all} row) and {@code journal stats} of {@code journal}
     * agree class by class; a class the journal never saw must show zeros. Returns the journal's figures.
     */
    static JournalStats assertAgree(List<Row> rows, Path journal, String output) throws JournalException {
        List<JournalRun> runs = JournalRun.read(journal, null);
        assertEquals(1, runs.size(), "one run in " + journal);
        JournalStats stats = new JournalStats().add(runs.get(0));
        Map<String, RequestFigures.ClassFigures> byClass = stats.byClass();
        assertTrue(rows.size() >= 2, "no per-class rows in:\n" + output);
        Set<String> seen = new HashSet<>();
        RequestFigures.ClassFigures none = new RequestFigures().total();
        for (Row row : rows) {
            RequestFigures.ClassFigures f = row.name().equals("all") ? stats.total()
                : byClass.getOrDefault(row.name(), none);
            List<String> wanted = row.figures().stream().map(c -> expected(f, c.substring(0, c.indexOf('='))))
                .toList();
            assertEquals(wanted, row.figures(), "class " + row.name() + " of the demo vs journal stats; demo:\n"
                + output);
            seen.add(row.name());
        }
        byClass.forEach((name, f) -> assertTrue(f.arrived() == 0 || seen.contains(name),
            "journal stats has class " + name + ", the demo does not:\n" + output));
        stats.rejectionsByReason().forEach((reason, classes) -> {
            long sum = classes.values().stream().mapToLong(Long::longValue).sum();
            Matcher line = Pattern.compile("^ +" + Pattern.quote(reason) + " +" + sum + " +(.*)$", Pattern.MULTILINE)
                .matcher(output);
            assertTrue(line.find(), "journal stats: " + reason + " " + sum + " " + classes + "; the demo:\n" + output);
            Set<String> expected = new HashSet<>();
            classes.forEach((name, count) -> expected.add(name + "=" + count));
            assertEquals(expected, Set.of(line.group(1).strip().split(", ")), reason + " by class");
        });
        return stats;
    }
}
