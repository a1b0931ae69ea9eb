package dev.sluice.transport.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.Await;
import dev.sluice.transport.testing.NatsServer;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.ScrapedMetrics;
import dev.sluice.transport.testing.SluiceProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real nats-server, two mock engines (slow, publishing KV events over ZMQ) and three {@code serve --nats-url}
 * replicas in front of both, each its own process. With busy gating (an engine with more than 500 prefill tokens
 * booked is busy; every prompt here has 600 or more) one replica alone runs one long request per engine: so must
 * the fleet. Then: a cached prefix wins its engine whichever replica takes the request (each replica subscribes to
 * the engines' KV events itself); nats-server restarted under load, every replica reconnects and nothing fails; a
 * replica killed with {@code kill -9} costs the others nothing and its bookings expire after its lease; with NATS
 * gone, the replicas serve on their own view.
 */
class ReplicaFleetSystemTest {
    private static final Pattern ENGINE_READY = Pattern.compile("mock-engine publishing KV events on port (\\d+), "
        + "replay on port (\\d+)");
    private static final Pattern ENGINE_URL = Pattern.compile("mock-engine listening on (http://\\S+)");
    private static final Pattern SERVE_READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "fleet";
    private static final int LONG_PROMPT = 600;
    private static final String LEASE = "2s";
    /** A thread per request: the common pool has a single thread on two cores. */
    private static final Executor CLIENTS = Executors.newVirtualThreadPerTaskExecutor();

    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<String> engineUrls = new ArrayList<>();
    private final List<String> kvEndpoints = new ArrayList<>();
    private final AtomicInteger prompts = new AtomicInteger();
    private NatsServer nats;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void shouldAdmitAsOneReplicaPlaceByPrefixAndSurviveRestartsAndKills() throws Exception {
        nats = NatsServer.start();
        open.add(nats);
        List<CompletableFuture<SluiceProcess>> engines = List.of(CompletableFuture.supplyAsync(this::engine, CLIENTS),
            CompletableFuture.supplyAsync(this::engine, CLIENTS));
        for (CompletableFuture<SluiceProcess> engine : engines) {
            SluiceProcess process = engine.join();
            Matcher url = ENGINE_URL.matcher(process.output());
            assertTrue(url.find(), process::output);
            Matcher kv = ENGINE_READY.matcher(process.output());
            assertTrue(kv.find(), process::output);
            engineUrls.add(url.group(1));
            kvEndpoints.add("tcp://127.0.0.1:" + kv.group(1) + ",replay=tcp://127.0.0.1:" + kv.group(2));
        }
        List<CompletableFuture<SluiceProcess>> starting = new ArrayList<>();
        for (String id : List.of("a", "b", "c")) {
            starting.add(CompletableFuture.supplyAsync(() -> replica(id), CLIENTS));
        }
        List<SluiceProcess> replicas = starting.stream().map(CompletableFuture::join).toList();
        List<Integer> ports = replicas.stream().map(r -> URI.create(r.ready()).getPort()).toList();
        Await.until("every replica sees the two others", () -> ports.stream().allMatch(p -> scrape(p)
            .get("sluice_replicas_seen") == 2));

        admitAsOneReplica(ports);
        placeByPrefix(ports);
        reconnectAfterNatsRestart(ports);
        expireTheKilledReplica(replicas.get(2), ports.subList(0, 2));
        serveWithoutNats(ports.subList(0, 2));
    }

    /**
     * Three long requests through a, b and c, one after another (each sent once the fleet agrees on every booking
     * so far): two engines, each busy with one, so two run and one queues, as behind a single replica. Without sync
     * each replica would place its own at once: three running.
     */
    private void admitAsOneReplica(List<Integer> ports) throws Exception {
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        long maxRunning = 0;
        long maxQueued = 0;
        for (int i = 0; i < 3; i++) {
            answers.add(send(ports.get(i), longPrompt(), 1));
            int sent = i + 1;
            List<ScrapedMetrics> seen = new ArrayList<>();
            Await.until("request " + sent + " placed or queued, its booking everywhere", () -> {
                List<ScrapedMetrics> now = ports.stream().map(ReplicaFleetSystemTest::scrape).toList();
                seen.clear();
                seen.addAll(now);
                return agree(now) && sum(now, "sluice_requests_arrived_total") == sent
                    && sum(now, "sluice_queue_pending_requests") + sum(now, "sluice_queue_dispatched_total") == sent;
            });
            long running = sum(seen, "sluice_worker_active_requests");
            assertTrue(running <= 2, running + " long requests run at once on two engines after " + sent + " sent");
            maxRunning = Math.max(maxRunning, running);
            maxQueued = Math.max(maxQueued, sum(seen, "sluice_queue_pending_requests"));
        }
        assertTrue(maxQueued >= 1 && maxRunning == 2, "queued at most " + maxQueued + ", running " + maxRunning);
        for (CompletableFuture<Integer> answer : answers) {
            assertEquals(200, answer.get(), "every queued request runs once an engine is free");
        }
    }

    /** A prompt cached on engine 1 (sent there directly) goes to engine 1 from every replica. */
    private void placeByPrefix(List<Integer> ports) throws Exception {
        String cached = prompt(64);
        long[] storedBefore = ports.stream().mapToLong(p -> scrape(p).get("sluice_kv_events_total")).toArray();
        assertEquals(200, RawHttp.exchange(URI.create(engineUrls.get(1)).getPort(), request(cached, 1)).status());
        for (int i = 0; i < ports.size(); i++) {
            int replica = i;
            Await.until("engine 1's KV events on replica " + i + " (its own ZMQ subscription)",
                () -> scrape(ports.get(replica)).get("sluice_kv_events_total") > storedBefore[replica]);
        }
        double engine0 = engineCounter(0, "vllm:prefix_cache_queries_total");
        double hits1 = engineCounter(1, "vllm:prefix_cache_hits_total");
        for (int port : ports) {
            assertEquals(200, send(port, cached, 1).get());
        }
        assertEquals(engine0, engineCounter(0, "vllm:prefix_cache_queries_total"), "engine 0 got none of them");
        assertTrue(engineCounter(1, "vllm:prefix_cache_hits_total") >= hits1 + 3 * 48,
            "engine 1 served each from its cache");
    }

    /** nats-server restarted while requests flow: none fails, every replica reconnects and sees the others again. */
    private void reconnectAfterNatsRestart(List<Integer> ports) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        List<Thread> clients = load(ports, stop, ok, failed);
        Await.until("load before the restart", () -> ok.get() >= 3);
        nats.restart();
        Await.until("every replica reconnected and sees the others", () -> ports.stream().allMatch(p -> {
            ScrapedMetrics m = scrape(p);
            return m.get("sluice_nats_reconnects_total") >= 1 && m.get("sluice_nats_connected") == 1
                && m.get("sluice_replicas_seen") == ports.size() - 1;
        }));
        int before = ok.get();
        Await.until("load after the restart", () -> ok.get() >= before + 3);
        stop.set(true);
        for (Thread client : clients) {
            client.join();
        }
        assertEquals(0, failed.get(), "requests failed across the NATS restart");
        Await.until("the fleet's streams complete again", () -> synced(ports));
    }

    /**
     * Replica c holds a long request on an engine and is killed while a serves one of its own: a's request ends
     * well, and c's booking, which c can no longer release, expires on a and b once c's lease runs out.
     */
    private void expireTheKilledReplica(SluiceProcess victim, List<Integer> survivors) throws Exception {
        int victimPort = URI.create(victim.ready()).getPort();
        List<Integer> all = List.of(survivors.get(0), survivors.get(1), victimPort);
        CompletableFuture<Integer> onVictim = send(victimPort, longPrompt(), 1);
        Await.until("c's booking on a and b", () -> scrape(victimPort).get("sluice_worker_active_requests") == 1
            && synced(all));
        CompletableFuture<Integer> inFlight = send(survivors.get(0), prompt(16), 4);
        Await.until("a's request placed", () -> scrape(survivors.get(0)).get("sluice_queue_dispatched_total")
            > scrape(survivors.get(0)).get("sluice_requests_completed_total"));
        assertEquals(137, victim.kill(), "SIGKILL: 128 + 9");
        assertTrue(survivors.stream().allMatch(p -> scrape(p).get("sluice_replica_remote_bookings") >= 1),
            "c's booking still counts within its lease");
        Await.until("c's lease ran out on a and b: its booking is gone", () -> survivors.stream().allMatch(p ->
            scrape(p).get("sluice_replicas_seen") == 1) && synced(survivors));
        assertEquals(200, inFlight.get(), "a's request runs to its end");
        assertEquals(RawHttp.CLOSED, (int) onVictim.get(), "c's client lost its connection");
        Await.until("every request on a and b ended once", () -> survivors.stream().allMatch(p -> {
            ScrapedMetrics m = scrape(p);
            return m.get("sluice_live_requests") == 0 && m.unbalanced() == 0
                && m.get("sluice_replica_remote_bookings") == 0;
        }));
    }

    /** NATS stopped: the replicas serve on their own bookings, and /health says the connection is down. */
    private void serveWithoutNats(List<Integer> ports) throws Exception {
        nats.stop();
        for (int port : ports) {
            Await.until("replica on " + port + " sees NATS down", () -> scrape(port).get("sluice_nats_connected")
                == 0);
            RawHttp.Response health = RawHttp.exchange(port, ("GET /health HTTP/1.1\r\nHost: x\r\nConnection: "
                + "close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(200, health.status(), health.text());
            assertTrue(health.body().contains("\"state\":\"") && !health.body().contains("\"state\":\"CONNECTED\""),
                health.body());
            assertEquals(200, send(port, prompt(16), 2).get(), "served on the local view");
        }
    }

    private SluiceProcess engine() {
        try {
            SluiceProcess engine = SluiceProcess.start(ENGINE_READY, List.of("mock-engine", "--port", "0",
                "--model-name", MODEL, "--block-size", "16", "--speedup-ratio", "0.005", "--kv-events",
                "tcp://127.0.0.1:0", "--kv-events-replay", "tcp://127.0.0.1:0"));
            open.add(engine);
            return engine;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private SluiceProcess replica(String id) {
        List<String> args = new ArrayList<>(List.of("serve", "--http-port", "0", "--no-journal", "--model-name",
            MODEL, "--block-size", "16", "--engine-max-num-batched-tokens", "500", "--engine-metrics-interval", "0s",
            "--nats-url", nats.url(), "--replica-id", id, "--replica-lease", LEASE));
        for (int i = 0; i < engineUrls.size(); i++) {
            args.addAll(List.of("--engine-url", engineUrls.get(i), "--engine-kv-events", kvEndpoints.get(i)));
        }
        try {
            SluiceProcess replica = SluiceProcess.start(SERVE_READY, args);
            open.add(replica);
            return replica;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every replica counts exactly the bookings the others hold themselves: the fleet's views agree. */
    private static boolean synced(List<Integer> ports) {
        return agree(ports.stream().map(ReplicaFleetSystemTest::scrape).toList());
    }

    private static boolean agree(List<ScrapedMetrics> scrapes) {
        long own = scrapes.stream().mapToLong(m -> m.get("sluice_worker_active_requests")).sum();
        return scrapes.stream().allMatch(m -> m.get("sluice_replica_remote_bookings")
            == own - m.get("sluice_worker_active_requests"));
    }

    private static long sum(List<ScrapedMetrics> scrapes, String metric) {
        return scrapes.stream().mapToLong(m -> m.get(metric)).sum();
    }

    private static ScrapedMetrics scrape(int port) {
        try {
            return ScrapedMetrics.of(port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot scrape port " + port, e);
        }
    }

    private double engineCounter(int engine, String name) throws IOException {
        RawHttp.Response page = RawHttp.exchange(URI.create(engineUrls.get(engine)).getPort(), ("GET /metrics "
            + "HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*} (\\S+)$").matcher(page.body());
        assertTrue(sample.find(), page.body());
        return Double.parseDouble(sample.group(1));
    }

    /** Clients on every replica, one short request after another, until {@code stop}. */
    private List<Thread> load(List<Integer> ports, AtomicBoolean stop, AtomicInteger ok, AtomicInteger failed) {
        List<Thread> clients = new ArrayList<>();
        for (int port : ports) {
            clients.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    try {
                        int status = RawHttp.exchange(port, request(prompt(16), 2)).status();
                        (status == 200 ? ok : failed).incrementAndGet();
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        return clients;
    }

    private CompletableFuture<Integer> send(int port, String prompt, int maxTokens) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return RawHttp.exchange(port, request(prompt, maxTokens)).status();
            } catch (IOException e) {
                return RawHttp.CLOSED;
            }
        }, CLIENTS);
    }

    private static byte[] request(String prompt, int maxTokens) {
        return RawHttp.post("/v1/completions", Map.of(), ("{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt
            + "\",\"max_tokens\":" + maxTokens + "}").getBytes(StandardCharsets.UTF_8));
    }

    private String longPrompt() {
        return prompt(LONG_PROMPT);
    }

    /** {@code words} distinct words no other prompt shares. */
    private String prompt(int words) {
        int n = prompts.incrementAndGet();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < words; i++) {
            text.append(i == 0 ? "" : " ").append('p').append(n).append('w').append(i);
        }
        return text.toString();
    }
}
