package dev.sluice.transport.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.audit.RequestFigures;
import dev.sluice.core.audit.TimelinePrinter;
import dev.sluice.core.journal.JournalRecord;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice journal show DIR}: timelines of the requests that match every filter given. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = {"Prints a timeline per request: arrival, classification, how long it waited and where, "
        + "where it went, how it ended. Filters combine: a request is shown when it matches all of them; an option "
        + "given twice matches either value.",
        "Exit codes: 0 printed, 1 nothing matched, 2 usage error or no journal in DIR, 3 the journal is damaged "
            + "(what could be read is shown; each damaged record is named on stderr)."})
final class JournalShow implements Callable<Integer> {
    /** What {@code --outcome} accepts; {@code rejected} includes {@code refused}, as {@code journal stats} counts. */
    static final List<String> OUTCOMES = List.of("completed", "rejected", "refused", "aborted", "open");

    @Parameters(paramLabel = "DIR", description = "The journal directory.")
    Path directory;

    @Option(names = "--request", paramLabel = "ID", description = "Only requests with this id: sluice's own "
        + "(x-sluice-request-id) or the client's x-request-id (several requests may carry one).")
    String requestId;

    @Option(names = "--session", paramLabel = "ID", description = "Only requests of this session (or its "
        + "child sessions).")
    String sessionId;

    @Option(names = "--since", paramLabel = "T", description = "Only requests that arrived at or after T: an "
        + "instant (2026-11-29T14:03:00Z) or an offset from the run's start (90s, 5m).")
    String since;

    @Option(names = "--until", paramLabel = "T", description = "Only requests that arrived before T (as --since).")
    String until;

    @Option(names = "--outcome", paramLabel = "OUTCOME", description = "Only requests that ended so: completed, "
        + "rejected (refusals at arrival included, as journal stats counts them), refused, aborted, or open.")
    List<String> outcomes = new ArrayList<>();

    @Option(names = "--reason", paramLabel = "REASON", description = "Only requests rejected or refused for this "
        + "reason, e.g. queue_rejected, deadline_exceeded (the error's code).")
    List<String> reasons = new ArrayList<>();

    @Option(names = "--class", paramLabel = "CLASS", description = "Only requests of this policy class: the one "
        + "they were last queued in or turned away from by its queue, as journal stats counts them; '(no class)' "
        + "or none for those that ended before one.")
    List<String> classes = new ArrayList<>();

    @Option(names = "--json", description = "Print one JSON document (snake_case keys) instead of timelines.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        TimeBound from = TimeBound.parse(spec, "--since", since);
        TimeBound to = TimeBound.parse(spec, "--until", until);
        for (String outcome : outcomes) {
            if (!OUTCOMES.contains(outcome)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--outcome '" + outcome
                    + "': expected one of " + String.join(", ", OUTCOMES));
            }
        }
        JournalReading reading = JournalReading.read(spec, directory);
        if (reading == null) {
            return 2;
        }
        List<JournalRun> runs = reading.runs();
        PrintWriter out = spec.commandLine().getOut();
        ObjectNode document = JournalJson.MAPPER.createObjectNode();
        ArrayNode jsonRuns = document.putArray("runs");
        int shown = 0;
        for (JournalRun run : runs) {
            List<Lifecycle> matching = new ArrayList<>();
            for (Lifecycle lifecycle : run.lifecycles().values()) {
                if (matches(run, lifecycle, from, to)) {
                    matching.add(lifecycle);
                }
            }
            if (matching.isEmpty()) {
                continue;
            }
            shown += matching.size();
            if (json) {
                ObjectNode jsonRun = JournalJson.run(jsonRuns.addObject(), run);
                ArrayNode requests = jsonRun.putArray("requests");
                matching.forEach(lifecycle -> JournalJson.lifecycle(requests.addObject(), run, lifecycle));
                continue;
            }
            TimelinePrinter.printRun(run, out);
            for (Lifecycle lifecycle : matching) {
                out.println();
                TimelinePrinter.print(run, lifecycle, out);
            }
            out.println();
        }
        if (json) {
            document.put("matched", shown);
            JournalJson.print(document, out);
        }
        out.flush();
        if (reading.damaged()) {
            return JournalReading.DAMAGED;
        }
        if (shown == 0) {
            spec.commandLine().getErr().println("sluice: no request in " + directory + " matches");
            spec.commandLine().getErr().flush();
            return 1;
        }
        return 0;
    }

    private boolean matches(JournalRun run, Lifecycle lifecycle, TimeBound from, TimeBound to) {
        var request = lifecycle.request();
        if (requestId != null && (request == null || !(requestId.equals(request.requestId())
            || requestId.equals(request.clientRequestId())))) {
            return false;
        }
        if (sessionId != null && (request == null || !(sessionId.equals(request.sessionId())
            || sessionId.equals(request.parentSessionId())))) {
            return false;
        }
        if (!outcomes.isEmpty() && !outcomes.contains(lifecycle.outcome())
            && !(outcomes.contains("rejected") && lifecycle.outcome().equals("refused"))) {
            return false;
        }
        JournalRecord.Error error = lifecycle.error();
        if (!reasons.isEmpty() && (error == null || !reasons.contains(error.reason()))) {
            return false;
        }
        if (!classes.isEmpty()) {
            String name = lifecycle.policyClass(run);
            boolean none = name == null && (classes.contains(RequestFigures.NO_CLASS) || classes.contains("none"));
            if (!none && (name == null || !classes.contains(name))) {
                return false;
            }
        }
        long at = request != null ? request.ingressAt() : lifecycle.records().get(0).timeNs();
        return (from == null || at >= from.schedulerNs(run)) && (to == null || at < to.schedulerNs(run));
    }
}
