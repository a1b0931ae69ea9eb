package dev.sluice.perf.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak run's clients: each request runs on its own virtual thread with a random prompt and length, streamed or
 * not, and a chosen share of streams is abandoned after a few bytes (the connection closes). Every request sent
 * ends in exactly one client outcome: completed, rejected (a non-200 status), cancelled or failed. Thread-safe;
 * {@link #send} is called from the pacing thread.
 */
final class SoakClient implements AutoCloseable {
    private static final String[] WORDS = {"river", "gate", "flow", "tide", "stone", "water", "lock", "weir",
        "mill", "bank", "reed", "salmon", "sluice", "channel", "flood", "dam"};

    private final URI uri;
    private final String model;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    final AtomicLong sent = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong cancelled = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicInteger inFlight = new AtomicInteger();

    SoakClient(int port, String model) {
        this.uri = URI.create("http://127.0.0.1:" + port + "/v1/completions");
        this.model = model;
        this.http = HttpClient.newBuilder().executor(threads).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Starts one request; {@code cancel} abandons its stream after a few bytes. */
    void send(SplittableRandom random, boolean cancel) {
        boolean stream = cancel || random.nextBoolean();
        StringBuilder prompt = new StringBuilder();
        int words = 20 + random.nextInt(380);
        for (int i = 0; i < words; i++) {
            prompt.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        String body = "{\"model\":\"" + model + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":"
            + (16 + random.nextInt(112)) + ",\"stream\":" + stream + "}";
        int abandonAfter = 1 + random.nextInt(2048);
        sent.incrementAndGet();
        inFlight.incrementAndGet();
        threads.execute(() -> {
            try {
                run(body, cancel, abandonAfter);
            } finally {
                inFlight.decrementAndGet();
            }
        });
    }

    private void run(String body, boolean cancel, int abandonAfter) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2))
            .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (response.statusCode() != 200) {
                    in.readAllBytes();
                    rejected.incrementAndGet();
                } else if (cancel) {
                    in.readNBytes(abandonAfter);
                    cancelled.incrementAndGet();
                } else {
                    in.readAllBytes();
                    completed.incrementAndGet();
                }
            }
        } catch (IOException e) {
            failed.incrementAndGet();
        } catch (InterruptedException e) {
            failed.incrementAndGet();
            Thread.currentThread().interrupt();
        }
    }

    /** Whether every request sent has its one client outcome. */
    boolean accounted() {
        return sent.get() == completed.get() + rejected.get() + cancelled.get() + failed.get();
    }

    @Override
    public void close() {
        threads.shutdownNow();
        http.close();
    }
}
