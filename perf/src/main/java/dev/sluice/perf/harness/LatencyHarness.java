package dev.sluice.perf.harness;

import dev.sluice.transport.plot.Chart;
import dev.sluice.transport.plot.PercentilePlot;
import dev.sluice.transport.plot.PngPlot;
import dev.sluice.transport.plot.SvgPlot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The in-process open-loop latency harness: for each offered rate, one trial of sluice's router and one of the
 * conventional baseline, same generators, classifier and instant engine. Prints Markdown tables (latency per trial,
 * then baseline/sluice ratios) on stdout and writes each histogram's percentile distribution ({@code .hgrm}, µs) and
 * the percentile plot, {@code latency.png} and {@code latency.svg}, into the output directory. The JVM runs headless
 * (set here, whatever the flags): the PNG is drawn with Java2D, never on a display.
 *
 * <p>Usage: {@code LatencyHarness [--rates 50000,200000,500000] [--generators 2] [--jvm-warmup 3] [--warmup 2]
 * [--seconds 5] [--targets sluice,baseline] [--out perf/results/harness]}; {@code sluice-spin} is sluice with a
 * busy-spinning scheduler (a core of its own), {@code sluice-combine} sluice whose idle scheduler's cycle runs on the
 * submitting thread, {@code sluice-locked} sluice's duty cycle stepped by the submitting thread under a lock (the
 * baseline's concurrency around sluice's work).
 */
public final class LatencyHarness {
    private LatencyHarness() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        long[] rates = {50_000, 200_000, 500_000};
        int generators = 2;
        double warmup = 2;
        double seconds = 5;
        double jvmWarmup = 3;
        Path out = Path.of("perf/results/harness");
        String[] targets = {"sluice", "baseline"};
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rates" -> rates = Arrays.stream(args[i + 1].split(",")).mapToLong(Long::parseLong).toArray();
                case "--generators" -> generators = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Double.parseDouble(args[i + 1]);
                case "--jvm-warmup" -> jvmWarmup = Double.parseDouble(args[i + 1]);
                case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--targets" -> targets = args[i + 1].split(",");
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(out);
        if (jvmWarmup > 0) {
            System.err.printf("harness: warming the JIT, %.1f s per controller at 200,000/s (not recorded)...%n",
                jvmWarmup);
            OpenLoopRun.run("sluice", 200_000, generators, jvmWarmup, 0.1);
            OpenLoopRun.run("baseline", 200_000, generators, jvmWarmup, 0.1);
        }
        List<TrialResult> results = new ArrayList<>();
        for (long rate : rates) {
            for (String target : targets) {
                System.err.printf("harness: %s at %,d/s offered, %d generator(s)...%n", target, rate, generators);
                TrialResult result = OpenLoopRun.run(target, rate, generators, warmup, seconds);
                results.add(result);
                writeHgrm(out.resolve(target + "-" + rate + ".hgrm"), result);
                System.gc();
            }
        }
        Chart plot = plot(results);
        Files.writeString(out.resolve("latency.svg"), SvgPlot.render(plot));
        writePng(out.resolve("latency.png"), plot);
        printTables(System.out, results, generators, warmup, seconds, out);
    }

    /** Every trial's latency by percentile; a controller's trials share a colour per rate, the baseline dashed. */
    static Chart plot(List<TrialResult> results) {
        List<PercentilePlot.Line> lines = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            TrialResult r = results.get(i);
            lines.add(new PercentilePlot.Line(String.format(Locale.ROOT, "%s %,d/s", r.target(),
                r.offeredPerSecond()), r.histogram(), i / 2, r.target().equals("baseline")));
        }
        return PercentilePlot.chart(String.format(Locale.ROOT, "Decision latency by percentile (µs, log), %d-core"
            + " machine", Runtime.getRuntime().availableProcessors()), lines);
    }

    /** The PNG is a convenience: a JDK without fonts or java.desktop still gets the tables and the SVG. */
    private static void writePng(Path file, Chart plot) {
        try {
            PngPlot.write(plot, file);
        } catch (IOException | RuntimeException | LinkageError | java.awt.AWTError e) {
            System.err.println("harness: no PNG plot (" + e + "); the SVG plot is written");
        }
    }

    private static void writeHgrm(Path file, TrialResult result) throws IOException {
        try (PrintStream stream = new PrintStream(Files.newOutputStream(file))) {
            result.histogram().outputPercentileDistribution(stream, 1000.0);
        }
    }

    private static void printTables(PrintStream out, List<TrialResult> results, int generators, double warmup,
                                    double seconds, Path dir) {
        out.printf(Locale.ROOT, "Decision latency, submit (intended send time) → dispatch callback, µs; %d "
            + "generator thread(s), %.1f s warm-up then %.1f s measured per trial; pass-through classifier, 8 workers, "
            + "instant engine. Histograms: `%s/*.hgrm`, plot: `%s/latency.png` (and `.svg`).%n%n", generators,
            warmup, seconds, dir, dir);
        out.println("| controller | offered/s | achieved/s | p50 | p99 | p99.9 | max | measured "
            + "| rejected in window | drained | scheduler CPU ns/decision | in submit ns/decision | CPU ns/decision |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |");
        for (TrialResult r : results) {
            out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %.2f | %.2f | %.2f | %.1f | %,d | %,d | %s | %,.0f | %,.0f "
                + "| %,.0f |%n", r.target(), r.offeredPerSecond(), r.achievedPerSecond(), r.micros(50), r.micros(99),
                r.micros(99.9), r.maxMicros(), r.measured(), r.rejected(), r.drained() ? "yes" : "NO",
                r.controllerCpuPerDecision(), r.callerPerDecision(), r.cpuPerDecision());
        }
        out.println();
        out.println("CPU per decision over the whole trial: the scheduler thread's CPU time (ThreadMXBean; a spinning "
            + "scheduler's idle spin included) plus the time the generators spent inside submit (where the baseline "
            + "decides), divided by the decisions.");
        out.println();
        out.println("Baseline ÷ sluice at the same offered rate (above 1: sluice is faster):");
        out.println();
        out.println("| offered/s | controller | p50 | p99 | p99.9 | achieved/s | CPU/decision |");
        out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
        double bestSluice = 0;
        double bestBaseline = 0;
        for (TrialResult b : results) {
            if (!b.target().equals("baseline")) {
                continue;
            }
            bestBaseline = Math.max(bestBaseline, b.achievedPerSecond());
            for (TrialResult s : results) {
                if (s.target().equals("baseline") || s.offeredPerSecond() != b.offeredPerSecond()) {
                    continue;
                }
                if (s.target().equals("sluice")) {
                    bestSluice = Math.max(bestSluice, s.achievedPerSecond());
                }
                out.printf(Locale.ROOT, "| %,d | %s | %.2f | %.2f | %.2f | %.2f | %.2f |%n", s.offeredPerSecond(),
                    s.target(), b.micros(50) / s.micros(50), b.micros(99) / s.micros(99),
                    b.micros(99.9) / s.micros(99.9), b.achievedPerSecond() / s.achievedPerSecond(),
                    b.cpuPerDecision() / s.cpuPerDecision());
            }
        }
        out.println();
        out.printf(Locale.ROOT, "Max achieved throughput: sluice %,.0f/s, baseline %,.0f/s (ratio sluice/baseline "
            + "%.2f).%n", bestSluice, bestBaseline, bestSluice / bestBaseline);
    }
}
