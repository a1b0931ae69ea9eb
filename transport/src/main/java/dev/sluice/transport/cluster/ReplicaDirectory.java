package dev.sluice.transport.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nats.client.Connection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas of the fleet and their leases. Every replica publishes a heartbeat on {@code sluice.replicas} three
 * times a lease (its key, and per model the number of its last booking message); a replica not heard from for a
 * whole lease (killed, cut off) is gone: every model drops its bookings. A replica shutting down says so ({@code bye})
 * and is gone at once. When this replica is cut off from NATS it hears nobody, so after a lease it serves on its
 * own bookings alone, and takes the others' back as they resync once NATS is there again.
 *
 * <p>Thread-safe: heartbeats arrive on NATS' dispatcher thread, the beat and the lease check run on this directory's
 * timer thread. {@link #close} is idempotent.
 */
final class ReplicaDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaDirectory.class);
    static final String SUBJECT = "sluice.replicas";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A replica heard from: its key and when (System.nanoTime). */
    private record Seen(String key, long lastNs) {
    }

    private final ReplicaCluster cluster;
    private final long leaseNs;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    ReplicaDirectory(ReplicaCluster cluster, long leaseNs) {
        this.cluster = cluster;
        this.leaseNs = leaseNs;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
            .name("sluice-replicas").unstarted(r));
        long beatNs = Math.max(1, leaseNs / 3);
        timer.scheduleAtFixedRate(() -> beat(false), 0, beatNs, TimeUnit.NANOSECONDS);
        timer.scheduleAtFixedRate(this::expire, leaseNs / 4, Math.max(1, leaseNs / 4), TimeUnit.NANOSECONDS);
    }

    /** Publishes this replica's heartbeat now ({@code bye}: it is leaving). Any thread. */
    void beat(boolean bye) {
        ObjectNode beat = JSON.createObjectNode().put("replica", cluster.identity().key()).put("bye", bye);
        ObjectNode models = beat.putObject("models");
        for (ModelSync model : cluster.models()) {
            models.put(model.token(), model.lastSeq());
        }
        try {
            Connection connection = cluster.link().connection();
            if (connection != null) {
                connection.publish(SUBJECT, JSON.writeValueAsBytes(beat));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("NATS: heartbeat not sent: {}", e.toString());
        }
    }

    /** A heartbeat on {@link #SUBJECT}. */
    void onHeartbeat(byte[] data, long nowNs) {
        JsonNode beat;
        try {
            beat = JSON.readTree(data);
        } catch (IOException e) {
            LOG.warn("NATS: dropped a heartbeat that is not JSON: {}", e.getMessage());
            return;
        }
        String key = beat.path("replica").asText("");
        if (key.isEmpty() || key.equals(cluster.identity().key())) {
            return;
        }
        if (beat.path("bye").asBoolean(false)) {
            if (seen.remove(key) != null) {
                LOG.info("NATS: replica {} left", key);
            }
            cluster.models().forEach(model -> model.onGone(key));
            return;
        }
        if (seen.put(key, new Seen(key, nowNs)) == null) {
            LOG.info("NATS: replica {} joined", key);
        }
        JsonNode models = beat.path("models");
        for (ModelSync model : cluster.models()) {
            JsonNode seq = models.get(model.token());
            if (seq != null) {
                model.onHeartbeat(key, seq.asLong(), nowNs);
            }
        }
    }

    private void expire() {
        long now = System.nanoTime();
        for (Seen replica : new ArrayList<>(seen.values())) {
            if (now - replica.lastNs() > leaseNs && seen.remove(replica.key(), replica)) {
                LOG.warn("NATS: replica {} not heard from for a lease; its bookings expire", replica.key());
                cluster.models().forEach(model -> model.onGone(replica.key()));
            }
        }
    }

    /** The replicas heard from within a lease, by id: each one's key. */
    Map<String, String> seen() {
        Map<String, String> byId = new TreeMap<>();
        seen.values().forEach(replica -> byId.put(ReplicaIdentity.idOf(replica.key()), replica.key()));
        return byId;
    }

    /** Their keys. */
    List<String> keys() {
        return List.copyOf(seen.keySet());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
