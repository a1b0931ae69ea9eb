package dev.sluice.transport.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.NatsServer;
import dev.sluice.transport.testing.RawHttp;
import dev.sluice.transport.testing.SluiceProcess;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code serve --nats-url} replicas, each its own process on its own simulated fleet, one
 * {@code token-rate-limit} policy with {@code scope: cluster}: a tenant limited to 30 requests a minute gets 30
 * across the three (plus what refilled while the test ran), not 30 from each; with nats-server stopped, each
 * replica gives a new tenant its share, 30 / 3.
 */
class ClusterBudgetSystemTest {
    private static final Pattern SERVE_READY = Pattern.compile("sluice serving \\S+ on (http://\\S+)");
    private static final String MODEL = "budget";

    private final List<AutoCloseable> open = new ArrayList<>();
    private int ids;

    @TempDir
    Path dir;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void shouldHoldATenantToItsLimitAcrossThreeReplicasAndToItsShareWithNatsDown() throws Exception {
        NatsServer nats = NatsServer.start();
        open.add(nats);
        Path policy = dir.resolve("admission.yaml");
        Files.writeString(policy, "request_classifier:\n  type: token-rate-limit\n  parameters:\n"
            + "    requests_per_minute: 30\n    scope: cluster\n    cluster:\n      replicas: 3\n"
            + "      chunk_requests: 2\n      fail_policy: open\n");
        List<Integer> ports = new ArrayList<>();
        for (String id : List.of("a", "b", "c")) {
            SluiceProcess replica = SluiceProcess.start(SERVE_READY, List.of("serve", "--http-port", "0",
                "--no-journal", "--model-name", MODEL, "--tenant-header", "x-tenant", "--router-policy-config",
                policy.toString(), "--nats-url", nats.url(), "--replica-id", id));
            open.add(replica);
            ports.add(URI.create(replica.ready()).getPort());
        }
        long start = System.nanoTime();
        int ok = 0;
        for (int i = 0; i < 90; i++) {
            int status = send(ports.get(i % 3), "acme");
            assertTrue(status == 200 || status == 429, "status " + status);
            ok += status == 200 ? 1 : 0;
        }
        long refilled = (long) Math.ceil(30 * (System.nanoTime() - start) / 60e9);
        assertTrue(ok >= 30 && ok <= 30 + refilled, ok + " of 90 admitted; the limit is 30 (+ " + refilled
            + " refilled), per-replica buckets would have admitted 90");

        nats.stop();
        for (int port : ports) {
            int share = 0;
            for (int i = 0; i < 15; i++) {
                share += send(port, "beta") == 200 ? 1 : 0;
            }
            assertEquals(10, share, "fail open: each replica's share is 30 / 3");
        }
    }

    private int send(int port, String tenant) throws Exception {
        byte[] body = ("{\"model\":\"" + MODEL + "\",\"prompt\":\"hello " + ids++ + "\",\"max_tokens\":1}")
            .getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(port, RawHttp.post("/v1/completions", Map.of("x-tenant", tenant), body)).status();
    }
}
