package dev.sluice.transport.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.RetimedReplay;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * What another configuration would have done to a recorded run ({@code sluice replay DIR --router-policy-config}):
 * the recording's own figures next to those of a {@link RetimedReplay} under the other configuration, per class,
 * with the model's limits said. First the model is checked: a retimed replay under the recorded configuration must
 * reproduce the recorded decisions; if it does not, the output says so before the figures. Single-threaded.
 *
 * @param check  the retimed replay under the recorded configuration, compared with the recording.
 * @param whatIf the retimed replay under the other configuration.
 * @param notes  what the model could not know, each with how often it mattered.
 */
public record WhatIfReplay(JournalRun run, String recordedName, String otherName, JournalStats recorded,
                           JournalStats other, DecisionComparison.Result check, RetimedReplay.Result whatIf,
                           List<String> notes) {
    /** The columns: each a name and how to read it from a class's figures. */
    private static final List<Map.Entry<String, ToLongFunction<RequestFigures.ClassFigures>>> COUNTS = List.of(
        Map.entry("arrived", RequestFigures.ClassFigures::arrived),
        Map.entry("queued", RequestFigures.ClassFigures::queued),
        Map.entry("admitted", RequestFigures.ClassFigures::admitted),
        Map.entry("deferred", RequestFigures.ClassFigures::deferred),
        Map.entry("parked", RequestFigures.ClassFigures::parked),
        Map.entry("completed", f -> f.count(RequestFigures.Outcome.COMPLETED)),
        Map.entry("rejected", f -> f.count(RequestFigures.Outcome.REJECTED)),
        Map.entry("aborted", f -> f.count(RequestFigures.Outcome.ABORTED)));


    /** Replays {@code run} under the recorded configuration (the check) and under {@code other}. */
    public static WhatIfReplay of(JournalRun run, RequestClassifierFactory recordedClassifier,
                                  RouterPolicyConfig other, RequestClassifierFactory otherClassifier,
                                  String otherName) throws ConfigException {
        RetimedReplay.Check calibrated = RetimedReplay.check(run, recordedClassifier);
        DecisionComparison.Result check = calibrated.comparison();
        RetimedReplay.Result whatIf = RetimedReplay.run(run, other, otherClassifier, calibrated.replay().stepping());
        JournalStats figures = new JournalStats().add(JournalRun.of(run.index(), run.header(), whatIf.records()));
        return new WhatIfReplay(run, run.header().policySource(), otherName, new JournalStats().add(run), figures,
            check, whatIf, notes(check, whatIf));
    }

    /** True when the model reproduced the recorded decisions under the recorded configuration. */
    public boolean reproduced() {
        return check.differences().isEmpty();
    }

    private static List<String> notes(DecisionComparison.Result check, RetimedReplay.Result w) {
        List<String> notes = new ArrayList<>();
        if (!check.differences().isEmpty()) {
            notes.add("the model does NOT reproduce the recorded run: under the recorded configuration "
                + check.differences().size() + " of " + check.decisions() + " decisions differ (first: "
                + check.differences().getFirst() + "); read the figures as approximate");
        }
        notes.add(w.retimed() + " dispatches answered with the recorded service times of that request (responding,"
            + " completion, a client leaving, a retry), re-timed from the new dispatch; a request's service time is"
            + " not re-modelled for another worker, queue delay or cache state");
        if (w.estimated() > 0) {
            notes.add(w.estimated() + " dispatches of requests the recording never served: estimated with their"
                + " class's median service times");
        }
        notes.add("the engines' KV-cache events and load reports are the recorded run's; " + w.elsewhere()
            + " dispatches went to another worker than recorded, whose caches and load would then have differed"
            + " (not modelled)");
        if (w.deferred() > 0) {
            notes.add(w.deferred() + " classifications were deferred in the recording; here each continuation ran"
                + " while the virtual clock stood still");
        }
        notes.add("stepped as " + w.stepping().description() + "; clients that left before dispatch leave when they"
            + " did; deadlines fire at the first recorded instant after them");
        return notes;
    }

    /** Prints the check, both runs side by side per class ({@code recorded → other}), and the notes. */
    public void print(PrintWriter out) {
        out.printf("run %d: %d recorded lifecycles over %.1f s%n", run.index(), run.lifecycles().size(),
            check.simulatedNs() / 1e9);
        out.printf("  model check: the recorded policy on the recorded service times %s%n", reproduced()
            ? "reproduces all " + check.decisions() + " recorded decisions and the order of " + check.dispatches()
                + " dispatches"
            : "does NOT reproduce the recording: " + check.differences().size() + " differences");
        out.printf("per class: %s (recorded) → %s (what-if)%n", recordedName, otherName);
        StringBuilder header = new StringBuilder(String.format("  %-20s", "class"));
        COUNTS.forEach(column -> header.append(String.format(" %11s", column.getKey())));
        out.println(header.append(String.format(" %15s %15s %15s %15s", "wait p50 ms", "wait p99 ms",
            "TTFT p50 ms", "TTFT p99 ms")));
        for (String name : classNames()) {
            RequestFigures.ClassFigures x = recorded.byClass().get(name);
            RequestFigures.ClassFigures y = other.byClass().get(name);
            StringBuilder line = new StringBuilder(String.format("  %-20s", name));
            COUNTS.forEach(column -> line.append(String.format(" %11s", pair(
                x == null ? "0" : Long.toString(column.getValue().applyAsLong(x)),
                y == null ? "0" : Long.toString(column.getValue().applyAsLong(y))))));
            line.append(String.format(" %15s %15s %15s %15s", ms(x, y, true, 50), ms(x, y, true, 99),
                ms(x, y, false, 50), ms(x, y, false, 99)));
            out.println(line);
        }
        out.println("  rejection reasons (status):");
        Map<String, Long> a = recorded.total().rejections();
        Map<String, Long> b = other.total().rejections();
        for (String reason : reasons()) {
            out.printf("    %-36s %s%n", reason, pair(Long.toString(a.getOrDefault(reason, 0L)),
                Long.toString(b.getOrDefault(reason, 0L))));
        }
        out.println("  figures as journal stats defines them:");
        RequestFigures.DEFINITIONS.forEach(line -> out.println("    " + line));
        out.println("  model limits:");
        notes.forEach(note -> out.println("    - " + note));
        out.printf("  replayed in %.3f s of wall time%n", (check.wallNs() + whatIf.wallNs()) / 1e9);
        out.flush();
    }

    /** The same as one JSON object: snake_case keys, counts as numbers, a missing figure as {@code null}. */
    public ObjectNode json() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("run", run.index());
        node.put("lifecycles", run.lifecycles().size());
        node.put("recorded_policy", recordedName);
        node.put("what_if_policy", otherName);
        ObjectNode model = node.putObject("model_check");
        model.put("reproduced", reproduced());
        model.put("stepping", whatIf.stepping().name().toLowerCase(java.util.Locale.ROOT));
        model.put("decisions", check.decisions());
        model.put("dispatches", check.dispatches());
        ArrayNode differences = model.putArray("differences");
        check.differences().forEach(d -> differences.add(ReplayJson.difference(d)));
        ObjectNode classes = node.putObject("classes");
        for (String name : classNames()) {
            ObjectNode entry = classes.putObject(name);
            entry.set("recorded", figures(recorded.byClass().get(name)));
            entry.set("what_if", figures(other.byClass().get(name)));
        }
        ArrayNode reasons = node.putArray("rejections");
        for (String reason : reasons()) {
            int open = reason.lastIndexOf(" (");
            reasons.addObject().put("reason", reason.substring(0, open))
                .put("status", Integer.parseInt(reason.substring(open + 2, reason.length() - 1)))
                .put("recorded", recorded.total().rejections().getOrDefault(reason, 0L))
                .put("what_if", other.total().rejections().getOrDefault(reason, 0L));
        }
        ObjectNode counts = node.putObject("model");
        counts.put("retimed_dispatches", whatIf.retimed());
        counts.put("estimated_dispatches", whatIf.estimated());
        counts.put("dispatches_elsewhere", whatIf.elsewhere());
        counts.put("deferred_classifications", whatIf.deferred());
        ArrayNode limits = node.putArray("notes");
        notes.forEach(limits::add);
        return node;
    }

    /** Every {@code reason (status)} of either run, sorted. */
    private Set<String> reasons() {
        Set<String> reasons = new TreeSet<>(recorded.total().rejections().keySet());
        reasons.addAll(other.total().rejections().keySet());
        return reasons;
    }

    private Set<String> classNames() {
        Set<String> names = new LinkedHashSet<>(recorded.byClass().keySet());
        names.addAll(other.byClass().keySet());
        return names;
    }

    private static ObjectNode figures(RequestFigures.ClassFigures f) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        COUNTS.forEach(column -> node.put(column.getKey(), f == null ? 0 : column.getValue().applyAsLong(f)));
        node.put("queue_wait_p50_ms", millis(f == null ? null : f.queueWaitUs(), 50));
        node.put("queue_wait_p99_ms", millis(f == null ? null : f.queueWaitUs(), 99));
        node.put("ttft_p50_ms", millis(f == null ? null : f.ttftUs(), 50));
        node.put("ttft_p99_ms", millis(f == null ? null : f.ttftUs(), 99));
        return node;
    }

    private static Double millis(Histogram us, double percentile) {
        return us == null || us.getTotalCount() == 0 ? null : us.getValueAtPercentile(percentile) / 1000.0;
    }

    private static String ms(RequestFigures.ClassFigures x, RequestFigures.ClassFigures y, boolean wait,
                             double p) {
        return pair(x == null ? "-" : RequestFigures.ms(wait ? x.queueWaitUs() : x.ttftUs(), p),
            y == null ? "-" : RequestFigures.ms(wait ? y.queueWaitUs() : y.ttftUs(), p));
    }

    private static String pair(String left, String right) {
        return left.equals(right) ? left : left + " → " + right;
    }
}
