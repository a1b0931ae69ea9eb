package dev.sluice.transport.cli;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.JournalStats;
import dev.sluice.core.audit.JournalVerifier;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.audit.TimelinePrinter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code sluice journal}: read an admission journal. */
@Command(name = "journal", mixinStandardHelpOptions = true, description = "Reads an admission journal.",
    subcommands = {JournalShow.class, JournalCommand.Stats.class, JournalCommand.Verify.class,
        CommandLine.HelpCommand.class})
final class JournalCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "a subcommand is required (try: journal show DIR, journal stats DIR, journal verify DIR)");
    }

    /** {@code sluice journal stats DIR}. */
    @Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Per policy class and outcome: counts, queue-wait (enqueue to dispatch) and TTFT (ingress to "
            + "first item) percentiles, rejection reasons, with the figures' definitions (the demo prints the same "
            + "figures).", "Exit codes: 0 printed, 2 usage error or no journal, 3 the journal is damaged (what could "
            + "be read is printed; each damaged record is named on stderr)."})
    static final class Stats implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "The journal directory.")
        Path directory;

        @Option(names = "--json", description = "Print one JSON document (snake_case keys) instead of tables.")
        boolean json;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            JournalReading reading = JournalReading.read(spec, directory);
            if (reading == null) {
                return 2;
            }
            List<JournalRun> runs = reading.runs();
            int rc = reading.damaged() ? JournalReading.DAMAGED : 0;
            JournalStats stats = new JournalStats();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                runs.forEach(stats::add);
                JournalJson.print(JournalJson.stats(runs, stats), out);
                out.flush();
                return rc;
            }
            for (JournalRun run : runs) {
                TimelinePrinter.printRun(run, out);
                stats.add(run);
            }
            out.println();
            stats.print(out);
            return rc;
        }
    }

    /** {@code sluice journal verify DIR}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Checks the lifecycle invariants: exactly one terminal event each; events in lifecycle order"
            + " with times never going back; nothing dispatched after its queue deadline or after its terminal event;"
            + " the header's policy fingerprint matches its text. A run that did not close cleanly (its process was"
            + " killed) is reported, with the lifecycles it left unfinished; those are not violations.",
            "Exit codes: 0 all hold, 1 violations (the offending request ids are printed), 2 usage error or no "
                + "journal, 3 the journal is damaged (every damaged record is listed with its file, record number "
                + "and byte; invariants are not checked)."})
    static final class Verify implements Callable<Integer> {
        @Parameters(paramLabel = "DIR", description = "The journal directory.")
        Path directory;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            JournalReading reading = JournalReading.read(spec, directory);
            if (reading == null) {
                return 2;
            }
            PrintWriter out = spec.commandLine().getOut();
            if (reading.damaged()) {
                // Invariants checked over records that could not all be read would report the damage as violations.
                out.printf("the journal is damaged: %d problems; no invariant was checked%n", reading.damage().size());
                reading.damage().forEach(d -> out.println("  " + d));
                out.flush();
                return JournalReading.DAMAGED;
            }
            List<JournalRun> runs = reading.runs();
            List<String> problems = new ArrayList<>();
            List<String> cutShort = new ArrayList<>();
            long lifecycles = 0;
            long records = 0;
            for (JournalRun run : runs) {
                lifecycles += run.lifecycles().size();
                records += run.records().size();
                if (run.header() != null && !run.header().fingerprintMatches()) {
                    problems.add("run " + run.index() + ": the policy fingerprint does not match the recorded text");
                }
                JournalVerifier.verify(run).forEach(v -> problems.add(v.toString()));
                if (!run.closed()) {
                    cutShort.add(cutShort(run, JournalVerifier.unfinished(run)));
                }
            }
            out.printf("checked %d runs, %d lifecycles, %d records:%n", runs.size(), lifecycles, records);
            out.println("  exactly one terminal event per lifecycle (rejected, refused, completed or aborted); none"
                + " yet for those live where a run that did not close ends");
            out.println("  events in lifecycle order (arrived, classified, enqueued, dispatched, responding, end;"
                + " retry re-enqueues), times never going back");
            out.println("  nothing dispatched after its queue deadline (due_at) or after its terminal event");
            out.println("  policy fingerprint (SHA-256) matches the recorded policy text");
            cutShort.forEach(out::println);
            if (problems.isEmpty()) {
                out.println("all invariants hold");
                out.flush();
                return 0;
            }
            out.printf("%d violations:%n", problems.size());
            problems.forEach(p -> out.println("  " + p));
            out.flush();
            return 1;
        }

        /** The note on a run that did not close: killed (its torn last record is not read), or still running. */
        private static String cutShort(JournalRun run, List<Lifecycle> unfinished) {
            StringBuilder note = new StringBuilder("run ").append(run.index()).append(" did not close cleanly (its "
                + "process was killed, or is still writing)");
            if (unfinished.isEmpty()) {
                return note.append("; no lifecycle was left unfinished").toString();
            }
            note.append(": ").append(unfinished.size()).append(" lifecycles unfinished where its records end");
            for (int i = 0; i < unfinished.size() && i < 10; i++) {
                note.append(i == 0 ? ": " : ", ").append(unfinished.get(i).requestId());
            }
            return note.append(unfinished.size() > 10 ? ", ..." : "").toString();
        }
    }
}
