package dev.sluice.perf.soak;

import dev.sluice.core.router.RouterContext;
import dev.sluice.core.router.RouterStatistics;
import dev.sluice.transport.engine.sim.SimEngineContext;
import dev.sluice.transport.frontend.EngineSetup;
import dev.sluice.transport.frontend.Frontend;
import dev.sluice.transport.frontend.FrontendSettings;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The soak test (not part of {@code scripts/test}; run by {@code scripts/soak}): a simulated fleet behind a real
 * frontend on loopback, loaded open-loop at a share of its measured capacity with random client cancellations, for a
 * set duration. Every interval it prints heap, thread count, live requests and the p99 admission latency; at the
 * end it fails (exit 1) if a request lacks a terminal outcome, at the client or in the router.
 *
 * <p>Arguments: {@code [duration] [interval] [load] [cancel share]}, e.g. {@code 10m 30s 0.8 0.1} (the defaults).
 */
public final class SoakRun {
    private static final String MODEL = "soak";

    private SoakRun() {
    }

    public static void main(String[] args) throws Exception {
        Duration duration = args.length > 0 ? duration(args[0]) : Duration.ofMinutes(10);
        Duration interval = args.length > 1 ? duration(args[1]) : Duration.ofSeconds(30);
        double load = args.length > 2 ? Double.parseDouble(args[2]) : 0.8;
        double cancelShare = args.length > 3 ? Double.parseDouble(args[3]) : 0.1;
        SoakObserver observer = new SoakObserver();
        List<String> problems;
        try (Frontend frontend = Frontend.start(new FrontendSettings("127.0.0.1", 0, MODEL, 1 << 20, 64, 529, null,
                 Duration.ofSeconds(30), new RouterContext().observer(observer),
                 new EngineSetup.Simulated(new SimEngineContext().speedupRatio(10), 4), null));
             SoakClient client = new SoakClient(frontend.port(), MODEL)) {
            SplittableRandom random = new SplittableRandom(42);
            double capacity = calibrate(client, random, Duration.ofSeconds(20));
            double rate = capacity * load;
            System.out.printf(Locale.ROOT, "soak: capacity %.1f req/s; running at %.1f req/s (%.0f%%) for %s,"
                + " %.0f%% cancelled%n", capacity, rate, load * 100, duration, cancelShare * 100);
            observer.interval();
            System.out.println("soak: counts below include the calibration's " + client.sent.get() + " requests");
            run(frontend, client, observer, random, rate, cancelShare, duration, interval);
            problems = finish(frontend, client, observer);
        }
        if (!problems.isEmpty()) {
            problems.stream().limit(20).forEach(p -> System.out.println("soak: FAIL " + p));
            System.exit(1);
        }
        System.out.println("soak: ok, every request ended exactly once");
    }

    /** Completions per second with 256 clients in a closed loop, none cancelling. */
    private static double calibrate(SoakClient client, SplittableRandom random, Duration time) {
        long start = System.nanoTime();
        long end = start + time.toNanos();
        long done = client.completed.get();
        while (System.nanoTime() < end) {
            while (client.inFlight.get() < 256) {
                client.send(random, false);
            }
            LockSupport.parkNanos(1_000_000L);
        }
        double rate = (client.completed.get() - done) * 1e9 / (System.nanoTime() - start);
        while (client.inFlight.get() > 0) {
            LockSupport.parkNanos(10_000_000L);
        }
        return rate;
    }

    private static void run(Frontend frontend, SoakClient client, SoakObserver observer, SplittableRandom random,
                            double rate, double cancelShare, Duration duration, Duration interval) {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long nextReport = start + interval.toNanos();
        long nextArrival = start;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            if (now >= nextArrival) {
                client.send(random, random.nextDouble() < cancelShare);
                // Poisson arrivals: exponential gaps with mean 1 / rate.
                nextArrival += (long) (-Math.log(1.0 - random.nextDouble()) / rate * 1e9);
            } else {
                LockSupport.parkNanos(Math.min(nextArrival - now, 1_000_000L));
            }
            if (now >= nextReport) {
                report((now - start) / 1_000_000_000L, frontend, client, observer);
                nextReport += interval.toNanos();
            }
        }
    }

    private static void report(long seconds, Frontend frontend, SoakClient client, SoakObserver observer) {
        Histogram admission = observer.interval();
        RouterStatistics stats = frontend.router().stats();
        System.out.printf(Locale.ROOT, "soak: t=%4ds heap=%4d MiB threads=%3d live=%4d admission p50=%.3f ms"
                + " p99=%.3f ms max=%.3f ms sent=%d completed=%d rejected=%d cancelled=%d failed=%d%n", seconds,
            ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20,
            ManagementFactory.getThreadMXBean().getThreadCount(), stats.live(),
            admission.getValueAtPercentile(50) / 1e6, admission.getValueAtPercentile(99) / 1e6,
            admission.getMaxValue() / 1e6, client.sent.get(), client.completed.get(), client.rejected.get(),
            client.cancelled.get(), client.failed.get());
    }

    /** Waits up to two minutes for every request to end, then lists what did not add up. */
    private static List<String> finish(Frontend frontend, SoakClient client, SoakObserver observer) {
        long giveUp = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while ((client.inFlight.get() > 0 || frontend.router().stats().live() > 0 || observer.open() > 0)
            && System.nanoTime() < giveUp) {
            LockSupport.parkNanos(50_000_000L);
        }
        List<String> problems = new ArrayList<>(observer.problems());
        RouterStatistics stats = frontend.router().stats();
        if (!client.accounted()) {
            problems.add("client: " + client.sent.get() + " sent but " + (client.completed.get()
                + client.rejected.get() + client.cancelled.get() + client.failed.get()) + " outcomes");
        }
        if (stats.live() != 0) {
            problems.add("router: " + stats.live() + " live requests at the end");
        }
        if (stats.arrived() != stats.completed() + stats.rejected() + stats.aborted()) {
            problems.add("router: arrived " + stats.arrived() + " != completed " + stats.completed() + " + rejected "
                + stats.rejected() + " + aborted " + stats.aborted());
        }
        System.out.printf(Locale.ROOT, "soak: end: router arrived=%d completed=%d rejected=%d aborted=%d;"
                + " observer arrivals=%d; client sent=%d completed=%d rejected=%d cancelled=%d failed=%d%n",
            stats.arrived(), stats.completed(), stats.rejected(), stats.aborted(), observer.arrivals(),
            client.sent.get(), client.completed.get(), client.rejected.get(), client.cancelled.get(),
            client.failed.get());
        return problems;
    }

    private static Duration duration(String text) {
        char unit = text.charAt(text.length() - 1);
        long value = Long.parseLong(text.substring(0, text.length() - 1));
        return switch (unit) {
            case 's' -> Duration.ofSeconds(value);
            case 'm' -> Duration.ofMinutes(value);
            case 'h' -> Duration.ofHours(value);
            default -> throw new IllegalArgumentException("a duration is a number and s, m or h: " + text);
        };
    }
}
