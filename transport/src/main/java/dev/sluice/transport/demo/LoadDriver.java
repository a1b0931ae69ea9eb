package dev.sluice.transport.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Sends the demo's calls to the frontend on wall time with the JDK {@link HttpClient} (HTTP/1.1, so a client
 * that stops reading closes its connection and the server sees the disconnect), one virtual thread per call in
 * flight, and records each call's end in a {@link ClientTally}. {@link #send} runs on the caller's thread;
 * {@link #close} stops the calls still running and the client. Not for concurrent {@code send}s.
 */
final class LoadDriver implements AutoCloseable {
    /** The demo's connect timeout: a connection not made in this long fails its call. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** The demo's call timeout: a call still running this long after it was sent gives up (a failure, never a hang). */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI uri;
    private final ClientTally tally;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    private final Duration requestTimeout;

    LoadDriver(URI baseUri, ClientTally tally) {
        this(baseUri, tally, CONNECT_TIMEOUT, REQUEST_TIMEOUT);
    }

    LoadDriver(URI baseUri, ClientTally tally, Duration connectTimeout, Duration requestTimeout) {
        this.uri = baseUri.resolve("/v1/chat/completions");
        this.tally = tally;
        this.requestTimeout = requestTimeout;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout).executor(calls).build();
    }

    /**
     * Sends each call at {@code startNs + call.atNs()} (open loop: late answers never delay later calls) and
     * returns after the last is sent or once {@code endNs} has passed; calls due after that are not sent.
     */
    void send(List<Call> plan, long startNs, long endNs) throws InterruptedException {
        for (Call call : plan) {
            long due = startNs + call.atNs();
            if (due >= endNs) {
                return;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            tally.onSent();
            calls.execute(() -> run(call));
        }
    }

    /** Waits until every call sent has ended or {@code timeout} passes; true when all ended. */
    boolean awaitEnded(Duration timeout) throws InterruptedException {
        long giveUp = System.nanoTime() + timeout.toNanos();
        while (tally.inFlight.get() > 0 && System.nanoTime() < giveUp) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return tally.inFlight.get() == 0;
    }

    private void run(Call call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(requestTimeout)
            .header("content-type", "application/json").header("x-request-id", call.requestId())
            .POST(HttpRequest.BodyPublishers.ofByteArray(call.body()));
        if (call.policyClass() != null) {
            request.header("x-dynamo-meta-policy-class", call.policyClass());
        }
        if (call.sessionId() != null) {
            request.header("x-dynamo-session-id", call.sessionId());
        }
        long sentAt = System.nanoTime();
        ClientTally.Outcome outcome;
        try {
            outcome = call.stream() ? stream(request.build(), call, sentAt) : plain(request.build(), sentAt);
        } catch (IOException e) {
            String what = e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + e.getMessage() : "");
            outcome = new ClientTally.Outcome(ClientTally.Kind.FAILED, 0, what, -1);
        } catch (InterruptedException e) {
            outcome = new ClientTally.Outcome(ClientTally.Kind.FAILED, 0, "stopped by the demo", -1);
        }
        tally.onEnded(call.requestId(), outcome);
    }

    private ClientTally.Outcome plain(HttpRequest request, long sentAt) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            return rejected(response.statusCode(), response.body());
        }
        return new ClientTally.Outcome(ClientTally.Kind.COMPLETED, 200, "", System.nanoTime() - sentAt);
    }

    private ClientTally.Outcome stream(HttpRequest request, Call call, long sentAt)
        throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = client.send(request, HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() != 200) {
                byte[] body = String.join("\n", lines.toList()).getBytes(StandardCharsets.UTF_8);
                return rejected(response.statusCode(), body);
            }
            long ttft = -1;
            int chunks = 0;
            for (Iterator<String> it = lines.iterator(); it.hasNext();) {
                String line = it.next();
                if (!line.startsWith("data: ")) {
                    continue;
                }
                if (line.equals("data: [DONE]")) {
                    return new ClientTally.Outcome(ClientTally.Kind.COMPLETED, 200, "", ttft);
                }
                if (line.contains("\"error\"")) {
                    return new ClientTally.Outcome(ClientTally.Kind.FAILED, 200, "error event mid-stream", ttft);
                }
                ttft = ttft < 0 ? System.nanoTime() - sentAt : ttft;
                if (++chunks == call.leaveAfter()) {
                    // Closing the body before its end closes the HTTP/1.1 connection: the server sees a disconnect.
                    return new ClientTally.Outcome(ClientTally.Kind.LEFT, 200, "", ttft);
                }
            }
            return new ClientTally.Outcome(ClientTally.Kind.FAILED, 200, "stream ended without [DONE]", ttft);
        }
    }

    private static ClientTally.Outcome rejected(int status, byte[] body) {
        String reason;
        try {
            JsonNode code = JSON.readTree(body).path("error").path("code");
            reason = code.isTextual() ? code.asText() : "unknown";
        } catch (IOException e) {
            reason = "unreadable error body";
        }
        return new ClientTally.Outcome(ClientTally.Kind.REJECTED, status, reason, -1);
    }

    @Override
    public void close() {
        // shutdownNow, not close: close would wait for every call still running, however long.
        client.shutdownNow();
        calls.shutdownNow();
    }
}
