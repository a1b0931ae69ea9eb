package dev.sluice.transport.demo;

import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.Engine;
import dev.sluice.transport.engine.EngineLoad;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.Frontend;
import dev.sluice.transport.frontend.FrontendSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code sluice demo}'s main job: starts a {@link Frontend} on a free loopback port, sends an open-loop
 * {@link HttpWorkload} through real HTTP for the run's duration with a progress line, waits for the calls in
 * flight (at most {@link #DRAIN_LIMIT}), closes the frontend, then prints the summary and writes the HTML report.
 * Runs on the caller's thread; everything it starts is closed before it returns.
 */
public final class HttpDemo {
    /** How long calls still in flight at the end of the run may take before the demo stops them. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    /**
     * The run's settings.
     *
     * @param frontend   the frontend to start; its router context gets the demo's observer added.
     * @param policy     where the policy came from, for the printout.
     * @param classifier what classifies, for the printout.
     * @param report     where to write the HTML report.
     */
    public record Settings(FrontendSettings frontend, Duration duration, long seed, Path report, String policy,
                           String classifier) {
        public Settings {
            Objects.requireNonNull(frontend, "frontend");
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(report, "report");
        }
    }

    /**
     * Helidon logs its start and stop at INFO through java.util.logging, between the progress bar and the summary;
     * held here because the logging framework keeps only weak references to loggers.
     */
    private static final java.util.logging.Logger HELIDON = java.util.logging.Logger.getLogger("io.helidon");

    private HttpDemo() {
    }

    /**
     * Runs the demo and prints to {@code out}; true when every request ended exactly once.
     *
     * @throws JournalException the journal cannot be opened.
     * @throws IOException      the report cannot be written.
     */
    public static boolean run(Settings settings, PrintStream out)
        throws JournalException, IOException, InterruptedException {
        FrontendSettings fs = settings.frontend();
        HELIDON.setLevel(java.util.logging.Level.WARNING);
        PolicyProfile profile = fs.model().router().profile();
        ClassTally router = new ClassTally(profile, fs.overloadStatus());
        fs.model().router().observer(router);
        EngineSetup.Simulated fleet = simulated(fs);
        int workers = fleet.workers();
        long durationNs = settings.duration().toNanos();
        DemoTraffic traffic = DemoTraffic.of(workers, settings.duration(), settings.seed(), fs.model().name());
        List<Call> plan = traffic.plan();
        Map<String, String> configuration = configuration(settings, traffic);
        out.println("sluice demo: admission control over real HTTP on a simulated fleet");
        configuration.forEach((label, value) -> out.printf("  %-12s %s%n", label, value));

        ClientTally clients = new ClientTally();
        ProgressMonitor progress;
        long start;
        long wallNs;
        double hitRate;
        long preemptions;
        Frontend started = Frontend.start(fs);
        try (Frontend frontend = started; LoadDriver driver = new LoadDriver(URI.create("http://" + fs.host() + ":"
            + frontend.port()), clients)) {
            out.printf("  frontend     http://%s:%d (%s)%n", fs.host(), frontend.port(),
                frontend.journalDirectory() != null ? "journal " + displayed(frontend.journalDirectory())
                    : "no journal");
            start = System.nanoTime();
            progress = new ProgressMonitor(clients, frontend.router()::stats, out, start, durationNs);
            try (progress) {
                driver.send(plan, start, start + durationNs);
                if (!driver.awaitEnded(DRAIN_LIMIT)) {
                    out.printf("%n  %d calls were still running %d s after the end; the demo stops them%n",
                        clients.inFlight.get(), DRAIN_LIMIT.toSeconds());
                }
                wallNs = System.nanoTime() - start;
            }
            double[] loads = loads(frontend.engines());
            hitRate = loads[0];
            preemptions = (long) loads[1];
        }
        RouterStatistics stats = started.router().stats();
        List<Call> sent = plan.subList(0, (int) clients.sent.get());
        DemoResult result = DemoResult.collect(configuration, sent, clients, router, stats, wallNs, hitRate,
            preemptions, progress.timeline());
        SummaryPrinter.print(result, out);
        HtmlReport.write(result, settings.report(), started.journalDirectory());
        out.printf("  report       %s%n", displayed(settings.report().toAbsolutePath()));
        journal(started.journalDirectory(), out);
        return result.balanced();
    }

    /** The engines' mean prefix-cache hit rate over ranks, and their preemptions in total. */
    private static double[] loads(List<Engine> engines) {
        double hits = 0;
        long preemptions = 0;
        int ranks = 0;
        for (Engine engine : engines) {
            for (int rank = 0; rank < engine.runtimeConfig().dataParallelSize(); rank++) {
                EngineLoad load = engine.load(rank);
                hits += load.prefixCacheHitRate();
                preemptions += load.preemptions();
                ranks++;
            }
        }
        return new double[] {ranks == 0 ? 0 : hits / ranks, preemptions};
    }

    /** The demo always runs on the simulated fleet; its settings describe it. */
    private static EngineSetup.Simulated simulated(FrontendSettings settings) {
        if (!(settings.model().engines() instanceof EngineSetup.Simulated fleet)) {
            throw new IllegalArgumentException("the demo runs on the simulated fleet");
        }
        return fleet;
    }

    private static Map<String, String> configuration(Settings settings, DemoTraffic traffic) {
        FrontendSettings fs = settings.frontend();
        SimEngineContext engine = simulated(fs).engine();
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put("fleet", DemoFleet.describe(simulated(fs).workers(), engine));
        lines.put("policy", settings.policy() + ": classes " + classNames(fs.model().router().profile()));
        lines.put("classifier", settings.classifier());
        lines.put("workload", traffic.describe());
        return lines;
    }

    /** The profile's class names, in ring order, comma-separated. */
    static String classNames(PolicyProfile profile) {
        StringBuilder names = new StringBuilder();
        for (var spec : profile.classes()) {
            names.append(names.isEmpty() ? "" : ", ").append(spec.name());
        }
        return names.toString();
    }

    private static void journal(Path directory, PrintStream out) {
        if (directory == null) {
            out.println("  journal      none (--no-journal)");
            return;
        }
        String dir = displayed(directory.toAbsolutePath());
        out.printf("  journal      %s%n", dir);
        String sluice = script();
        out.printf("               %s journal show %s --request chat-1%n", sluice, dir);
        out.printf("               %s journal stats %s   |   %s journal verify %s%n", sluice, dir, sluice, dir);
        out.printf("               %s replay %s --verify%n", sluice, dir);
        out.println("               (replays every input, the engines' KV-cache events included, on a virtual clock,"
            + " and reports");
        out.println("               any decision it does not reproduce)");
    }

    /**
     * The command that runs sluice as the user called it ({@code scripts/sluice} from the checkout,
     * {@code ../sluice/scripts/sluice} from elsewhere), which {@code scripts/sluice} passes as {@code sluice.script}:
     * the commands the demo prints then run as printed, from the directory it was run in.
     */
    static String script() {
        return System.getProperty("sluice.script", "scripts/sluice");
    }

    /** Relative to the working directory when inside it: shorter, and what the user typed. */
    static String displayed(Path path) {
        Path cwd = Path.of("").toAbsolutePath();
        Path absolute = path.toAbsolutePath();
        return absolute.startsWith(cwd) ? cwd.relativize(absolute).toString() : absolute.toString();
    }
}
