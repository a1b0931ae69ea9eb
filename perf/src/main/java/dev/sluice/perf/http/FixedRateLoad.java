package dev.sluice.perf.http;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * An open-loop HTTP load generator (what wrk2 does, which Debian does not ship): request {@code i} is due at
 * {@code start + i / rate}, whatever happened to the ones before it, and its latency is measured from that due time,
 * so a stall delays and counts against every request due during it (coordinated omission corrected). A fixed set of
 * keep-alive connections, one platform thread each, takes the due requests in order; when all are busy the next one
 * starts late and the lateness is in its latency.
 *
 * <p>Usage: {@code FixedRateLoad --url http://127.0.0.1:8000 --rate 2000 [--seconds 10] [--warmup 3]
 * [--stream false] [--connections 64] [--max-tokens 16] [--model sluice-sim] [--hgrm FILE]}. Prints one line:
 * {@code p50_us p99_us p999_us max_us achieved_per_s errors}.
 */
public final class FixedRateLoad {
    private FixedRateLoad() {
    }

    /** One run's settings. */
    record Settings(InetSocketAddress address, String host, double rate, double seconds, boolean stream,
                    int connections, int maxTokens, String model) {
    }

    /** One run's outcome: latency from each request's due time (ns), and what was achieved. */
    record Result(Histogram latencyNs, long sent, long errors, double elapsedSeconds) {
        double achievedPerSecond() {
            return sent / elapsedSeconds;
        }
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        double rate = 0;
        double seconds = 10;
        double warmup = 3;
        boolean stream = false;
        int connections = 64;
        int maxTokens = 16;
        String model = "sluice-sim";
        Path hgrm = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--url" -> url = args[i + 1];
                case "--rate" -> rate = Double.parseDouble(args[i + 1]);
                case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
                case "--warmup" -> warmup = Double.parseDouble(args[i + 1]);
                case "--stream" -> stream = Boolean.parseBoolean(args[i + 1]);
                case "--connections" -> connections = Integer.parseInt(args[i + 1]);
                case "--max-tokens" -> maxTokens = Integer.parseInt(args[i + 1]);
                case "--model" -> model = args[i + 1];
                case "--hgrm" -> hgrm = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (url == null || rate <= 0 || seconds <= 0 || connections < 1) {
            throw new IllegalArgumentException("--url and a positive --rate are required (and positive --seconds, "
                + "--connections); see the class comment for usage");
        }
        URI uri = URI.create(url);
        int port = uri.getPort() > 0 ? uri.getPort() : 80;
        Settings settings = new Settings(new InetSocketAddress(uri.getHost(), port), uri.getHost() + ":" + port,
            rate, seconds, stream, connections, maxTokens, model);
        if (warmup > 0) {
            run(new Settings(settings.address(), settings.host(), rate, warmup, stream, connections, maxTokens,
                model));
        }
        Result result = run(settings);
        Histogram h = result.latencyNs();
        System.out.printf(Locale.ROOT, "%d %d %d %d %.0f %d%n", h.getValueAtPercentile(50) / 1000,
            h.getValueAtPercentile(99) / 1000, h.getValueAtPercentile(99.9) / 1000, h.getMaxValue() / 1000,
            result.achievedPerSecond(), result.errors());
        if (hgrm != null) {
            try (PrintStream out = new PrintStream(Files.newOutputStream(hgrm), true, StandardCharsets.UTF_8)) {
                h.outputPercentileDistribution(out, 1000.0);
            }
        }
    }

    /** Offers {@code rate} requests/s for {@code seconds}; returns when every due request has been answered. */
    static Result run(Settings settings) throws InterruptedException {
        byte[] request = request(settings);
        Histogram latency = new ConcurrentHistogram(3_600_000_000_000L, 3);
        long total = Math.max(1, Math.round(settings.rate() * settings.seconds()));
        double periodNs = 1e9 / settings.rate();
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime() + 20_000_000L;
        List<Thread> senders = new ArrayList<>(settings.connections());
        for (int c = 0; c < settings.connections(); c++) {
            Thread sender = new Thread(() -> send(settings, request, start, periodNs, total, next, latency, errors),
                "fixed-rate-" + c);
            sender.setDaemon(true);
            senders.add(sender);
            sender.start();
        }
        for (Thread sender : senders) {
            sender.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Result(latency, total, errors.get(), elapsed);
    }

    private static void send(Settings settings, byte[] request, long start, double periodNs, long total,
                             AtomicLong next, Histogram latency, AtomicLong errors) {
        try (HttpExchange exchange = new HttpExchange(settings.address(), request)) {
            for (long i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                long due = start + (long) (i * periodNs);
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                int status;
                try {
                    status = exchange.send();
                } catch (IOException e) {
                    status = -1;
                }
                latency.recordValue(Math.max(0, System.nanoTime() - due));
                if (status != 200) {
                    errors.incrementAndGet();
                }
            }
        }
    }

    private static byte[] request(Settings settings) {
        String body = "{\"model\":\"" + settings.model() + "\",\"max_tokens\":" + settings.maxTokens()
            + ",\"stream\":" + settings.stream() + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";
        byte[] json = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + settings.host() + "\r\n"
            + "Content-Type: application/json\r\nContent-Length: " + json.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + json.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(json, 0, all, headBytes.length, json.length);
        return all;
    }
}
