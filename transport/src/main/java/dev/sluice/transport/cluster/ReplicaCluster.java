package dev.sluice.transport.cluster;

import dev.sluice.core.api.SharedBudgets;
import dev.sluice.transport.budget.NatsBudgets;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.MessageHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemEpochNanoClock;

/**
 * This serve replica in a fleet of replicas sharing one set of engines through NATS: its identity, its
 * {@link NatsLink}, the {@link ReplicaDirectory} of the others and their leases, and one {@link ModelSync} per
 * model, whose router counts the whole fleet's bookings. Every replica subscribes to the engines' KV events itself
 * (ZMQ PUB fans out), so none of that goes through NATS. The replicas' cluster-scoped tenant budgets
 * ({@link #budgets()}) share the connection.
 *
 * <pre>
 *   scheduler (own bookings) ─▶ ModelSync ─▶ BookingPublisher ─▶ sluice.bookings.MODEL ─┐
 *   other replicas ◀────────────────────────────────────────────────────────────────────┘
 *   sluice.bookings.MODEL ─▶ BookingApplier ─▶ ModelRouter.remoteBooked ─▶ scheduler (their bookings)
 *   sluice.replicas (heartbeats) ─▶ ReplicaDirectory: leases, resync on a gap
 * </pre>
 *
 * <p>Thread-safe. {@link #close} says goodbye to the others, then closes the models' publishers and the connection;
 * idempotent.
 */
public final class ReplicaCluster implements AutoCloseable {
    /** One JetStream request of a budget claim at most; the plugin's claim_timeout_ms bounds the whole claim. */
    private static final Duration BUDGET_REQUEST_TIMEOUT = Duration.ofMillis(500);

    private final ReplicaIdentity identity;
    private final NatsLink link;
    private final long leaseNs;
    private Dispatcher dispatcher;
    private final List<ModelSync> models = new CopyOnWriteArrayList<>();
    private final ReplicaDirectory directory;
    private final NatsBudgets budgets;
    private boolean closed;

    private ReplicaCluster(ReplicaIdentity identity, NatsLink link, Duration lease) {
        this.identity = identity;
        this.link = link;
        this.leaseNs = lease.toNanos();
        this.directory = new ReplicaDirectory(this, leaseNs);
        this.budgets = new NatsBudgets(link::connection, BUDGET_REQUEST_TIMEOUT, SystemEpochNanoClock.INSTANCE);
        subscribe(ReplicaDirectory.SUBJECT, message -> directory.onHeartbeat(message.getData(), System.nanoTime()));
        link.whenConnected(connection -> directory.beat(false));
        link.onReconnect(() -> directory.beat(false));
    }

    /**
     * Connects to {@code natsUrl} as {@code identity}, with bookings of a replica not heard from for {@code lease}
     * expiring. Returns at once when NATS is not there yet (see {@link NatsLink}).
     *
     * @throws IllegalArgumentException a malformed URL, or a lease under 100 ms.
     */
    public static ReplicaCluster start(String natsUrl, ReplicaIdentity identity, Duration lease) {
        if (lease.toMillis() < 100) {
            throw new IllegalArgumentException("--replica-lease must be at least 100ms, was " + lease);
        }
        NatsLink link = NatsLink.connect(natsUrl, identity);
        try {
            return new ReplicaCluster(identity, link, lease);
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** Replica sync for model {@code name}: the router's booking observer, to {@link ModelSync#attach} once started. */
    public ModelSync model(String name) {
        ModelSync sync = new ModelSync(name, this);
        models.add(sync);
        return sync;
    }

    public ReplicaIdentity identity() {
        return identity;
    }

    public NatsLink link() {
        return link;
    }

    /** The shared NATS connection (the budget store uses it too); null until the first connect. */
    public Connection connection() {
        return link.connection();
    }

    /** The tenant budgets every replica shares (JetStream key-value on the same connection), for every model. */
    public SharedBudgets budgets() {
        return budgets;
    }

    long leaseNs() {
        return leaseNs;
    }

    /**
     * Subscribes {@code handler} to {@code subject} on the cluster's one dispatcher thread, once connected (jnats
     * subscribes again after each reconnect).
     */
    void subscribe(String subject, MessageHandler handler) {
        link.whenConnected(connection -> dispatcher(connection).subscribe(subject, handler));
    }

    private synchronized Dispatcher dispatcher(Connection connection) {
        if (dispatcher == null) {
            dispatcher = connection.createDispatcher();
        }
        return dispatcher;
    }

    List<ModelSync> models() {
        return models;
    }

    /** The other replicas heard from within a lease: id to key ({@code id#incarnation}). */
    public Map<String, String> replicasSeen() {
        return directory.seen();
    }

    /** {@code /health}'s {@code nats} entry: the connection, this replica, the others seen. */
    public Map<String, Object> health() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("url", link.url());
        entry.put("state", link.state());
        entry.put("replica", identity.id());
        entry.put("replicas_seen", new ArrayList<>(directory.seen().keySet()));
        entry.put("lease_ms", leaseNs / 1_000_000);
        return entry;
    }

    /** The cluster's part of {@code /metrics} (Prometheus text). */
    public String metricsText() {
        StringBuilder out = new StringBuilder(1024);
        String replica = "replica=\"" + identity.id() + "\"";
        gauge(out, "sluice_nats_connected", "1 while the NATS connection is up.", replica, link.connected() ? 1 : 0);
        counter(out, "sluice_nats_reconnects_total", "Reconnects to NATS since start.", replica, link.reconnects());
        gauge(out, "sluice_replicas_seen", "Other serve replicas heard from within a lease.", replica,
            directory.keys().size());
        counter(out, "sluice_budget_writes_total", "Cluster budget claims and refunds written to NATS.", replica,
            budgets.writes());
        counter(out, "sluice_budget_conflicts_total", "Cluster budget writes retried after another replica's.",
            replica, budgets.conflicts());
        counter(out, "sluice_budget_failures_total", "Cluster budget claims that failed (NATS unreachable).",
            replica, budgets.failures());
        for (ModelSync model : models) {
            String labels = "model=\"" + model.model().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            SyncCounts counts = model.counts();
            counter(out, "sluice_replica_bookings_published_total", "Booking messages published.", labels,
                counts.published());
            counter(out, "sluice_replica_bookings_publish_failed_total", "Booking messages not published.", labels,
                counts.publishFailed());
            counter(out, "sluice_replica_bookings_received_total", "Other replicas' booking messages received.",
                labels, counts.received());
            counter(out, "sluice_replica_bookings_unknown_engine_total", "Bookings on engines this replica lacks.",
                labels, counts.unknownEngine());
            counter(out, "sluice_replica_resyncs_asked_total", "Resyncs asked of other replicas (missed messages).",
                labels, counts.resyncsAsked());
            counter(out, "sluice_replica_resyncs_served_total", "Resyncs answered with every live booking.", labels,
                counts.resyncsServed());
            gauge(out, "sluice_replica_remote_bookings", "Other replicas' bookings counted in the workers' load.",
                labels, model.remoteBookings());
            Histogram lag = model.lag().snapshot();
            out.append("# HELP sluice_replica_sync_lag_seconds Booking on another replica to its application here.\n")
                .append("# TYPE sluice_replica_sync_lag_seconds summary\n");
            for (double q : new double[] {0.5, 0.99}) {
                out.append("sluice_replica_sync_lag_seconds{").append(labels).append(",quantile=\"").append(q)
                    .append("\"} ").append(lag.getValueAtPercentile(q * 100) / 1e6).append('\n');
            }
            out.append("sluice_replica_sync_lag_seconds_count{").append(labels).append("} ")
                .append(lag.getTotalCount()).append('\n');
        }
        return out.toString();
    }

    private static void gauge(StringBuilder out, String name, String help, String labels, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name)
            .append(" gauge\n").append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private static void counter(StringBuilder out, String name, String help, String labels, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name)
            .append(" counter\n").append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        directory.close();
        directory.beat(true);
        models.forEach(ModelSync::close);
        budgets.close();
        try {
            Connection connection = link.connection();
            if (connection != null) {
                connection.flush(Duration.ofSeconds(1));
            }
        } catch (Exception e) {
            // Leaving anyway: the others' leases run out instead.
        }
        link.close();
    }
}
