package dev.sluice.transport.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.replay.DecisionComparison;
import dev.sluice.core.replay.RetimedReplay;
import dev.sluice.core.spi.RequestClassifierFactory;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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
public record WhatIfReplay(JournalRun run, String recordedName, String otherName, RunFigures recorded,
                           RunFigures other, DecisionComparison.Result check, RetimedReplay.Result whatIf,
                           List<String> notes) {

    /** Replays {@code run} under the recorded configuration (the check) and under {@code other}. */
    public static WhatIfReplay of(JournalRun run, RequestClassifierFactory recordedClassifier,
                                  RouterPolicyConfig other, RequestClassifierFactory otherClassifier,
                                  String otherName) throws ConfigException {
        RetimedReplay.Check calibrated = RetimedReplay.check(run, recordedClassifier);
        DecisionComparison.Result check = calibrated.comparison();
        RetimedReplay.Result whatIf = RetimedReplay.run(run, other, otherClassifier, calibrated.replay().stepping());
        RunFigures figures = RunFigures.of(JournalRun.of(run.index(), run.header(), whatIf.records()));
        return new WhatIfReplay(run, run.header().policySource(), otherName, RunFigures.of(run), figures, check,
            whatIf, notes(check, whatIf));
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
        for (String name : RunFigures.ClassFigures.NAMES) {
            header.append(String.format(" %13s", name));
        }
        out.println(header.append(String.format(" %13s %13s %13s %13s", "wait p50 ms", "wait p99 ms",
            "TTFT p50 ms", "TTFT p99 ms")));
        for (String name : classNames()) {
            RunFigures.ClassFigures x = recorded.classes().get(name);
            RunFigures.ClassFigures y = other.classes().get(name);
            StringBuilder line = new StringBuilder(String.format("  %-20s", name));
            for (int i = 0; i < RunFigures.ClassFigures.NAMES.length; i++) {
                line.append(String.format(" %13s", pair(x == null ? null : x.count(i), y == null ? null
                    : y.count(i))));
            }
            line.append(String.format(" %13s %13s %13s %13s", waits(x, y, true, 50), waits(x, y, true, 99),
                waits(x, y, false, 50), waits(x, y, false, 99)));
            out.println(line);
        }
        out.println("  rejection reasons (status):");
        for (RunFigures.Reason reason : reasons()) {
            out.printf("    %-36s %s%n", reason, pair(recorded.rejections().getOrDefault(reason, 0L),
                other.rejections().getOrDefault(reason, 0L)));
        }
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
            entry.set("recorded", figures(recorded.classes().get(name)));
            entry.set("what_if", figures(other.classes().get(name)));
        }
        ArrayNode reasons = node.putArray("rejections");
        for (RunFigures.Reason reason : reasons()) {
            reasons.addObject().put("reason", reason.reason()).put("status", reason.status())
                .put("recorded", recorded.rejections().getOrDefault(reason, 0L))
                .put("what_if", other.rejections().getOrDefault(reason, 0L));
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

    private Set<RunFigures.Reason> reasons() {
        Set<RunFigures.Reason> reasons = new TreeSet<>(recorded.rejections().keySet());
        reasons.addAll(other.rejections().keySet());
        return reasons;
    }

    private Set<String> classNames() {
        Set<String> names = new LinkedHashSet<>(recorded.classes().keySet());
        names.addAll(other.classes().keySet());
        return names;
    }

    private static ObjectNode figures(RunFigures.ClassFigures f) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < RunFigures.ClassFigures.NAMES.length; i++) {
            node.put(RunFigures.ClassFigures.NAMES[i], f == null ? 0 : f.count(i));
        }
        node.put("queue_wait_p50_ms", f == null ? null : f.ms(f.queueWaitUs(), 50));
        node.put("queue_wait_p99_ms", f == null ? null : f.ms(f.queueWaitUs(), 99));
        node.put("ttft_p50_ms", f == null ? null : f.ms(f.ttftUs(), 50));
        node.put("ttft_p99_ms", f == null ? null : f.ms(f.ttftUs(), 99));
        return node;
    }

    private static String waits(RunFigures.ClassFigures x, RunFigures.ClassFigures y, boolean wait, double p) {
        return pair(x == null ? null : x.ms(wait ? x.queueWaitUs() : x.ttftUs(), p),
            y == null ? null : y.ms(wait ? y.queueWaitUs() : y.ttftUs(), p));
    }

    private static String pair(Long x, Long y) {
        String left = x == null ? "-" : x.toString();
        String right = y == null ? "-" : y.toString();
        return left.equals(right) ? left : left + " → " + right;
    }
}
