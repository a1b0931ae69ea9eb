package dev.sluice.transport.cluster;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.BookingObserver;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.router.ModelRouter;
import io.nats.client.Connection;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Replica sync of one model's bookings: the router's {@link BookingObserver} (the router's own bookings out, through
 * a {@link BookingPublisher}), and once {@link #attach attached} to the started router the subscriber that applies
 * the other replicas' bookings to it ({@link BookingApplier}) and answers their resync requests. Subjects:
 * {@code sluice.bookings.<model>} and {@code sluice.resync.<model>} (the replica asked to resync as the payload).
 *
 * <p>The observer methods run on the scheduler thread and only hand messages over; the rest is thread-safe.
 */
public final class ModelSync implements BookingObserver, AutoCloseable {
    private final String model;
    private final String token;
    private final ReplicaCluster cluster;
    private final BookingPublisher publisher;
    private final SyncLag lag = new SyncLag();
    private volatile WorkerAddresses addresses;
    private volatile BookingApplier applier;
    private volatile ModelRouter router;

    ModelSync(String model, ReplicaCluster cluster) {
        this.model = model;
        this.token = subjectToken(model);
        this.cluster = cluster;
        this.publisher = new BookingPublisher(cluster.link(), "sluice.bookings." + token,
            cluster.identity().key(), model);
    }

    /** A model name as one NATS subject token: its safe characters, and a hash of the whole name. */
    static String subjectToken(String model) {
        String safe = model.replaceAll("[^A-Za-z0-9_-]", "_");
        return (safe.length() > 48 ? safe.substring(0, 48) : safe) + "-"
            + Integer.toHexString(model.hashCode() & 0x7fffffff);
    }

    /** Starts applying the other replicas' bookings to {@code router}, naming workers by {@code workerAddresses}. */
    public void attach(ModelRouter router, WorkerAddresses workerAddresses) {
        this.addresses = workerAddresses;
        this.router = router;
        String self = cluster.identity().key();
        BookingApplier applying = new BookingApplier(self, router, workerAddresses, replica -> {
            Connection connection = cluster.link().connection();
            if (connection != null) {
                connection.publish("sluice.resync." + token, replica.getBytes(StandardCharsets.UTF_8));
            }
        }, cluster.leaseNs());
        this.applier = applying;
        cluster.subscribe("sluice.bookings." + token, message -> applying.onMessage(message.getData(),
            System.nanoTime()));
        cluster.subscribe("sluice.resync." + token, message -> {
            if (self.equals(new String(message.getData(), StandardCharsets.UTF_8))) {
                publisher.resync();
            }
        });
    }

    public String model() {
        return model;
    }

    /** The subject token heartbeats name this model's stream by. */
    String token() {
        return token;
    }

    /** The number of the last booking message this replica published for the model. */
    long lastSeq() {
        return publisher.lastSeq();
    }

    /** A heartbeat of another replica: it has published up to {@code lastSeq} for this model. */
    void onHeartbeat(String replica, long lastSeq, long nowNs) {
        BookingApplier applying = applier;
        if (applying != null) {
            applying.onHeartbeat(replica, lastSeq, nowNs);
        }
    }

    /** Another replica's lease ran out. */
    void onGone(String replica) {
        BookingApplier applying = applier;
        if (applying != null) {
            applying.onGone(replica);
        }
    }

    @Override
    public void onBooked(long key, WorkerWithDpRank worker, long[] sequenceHashes, int count, long prefillTokens) {
        WorkerAddresses known = addresses;
        String engine = known == null ? null : known.address(worker.workerId());
        if (engine != null) {
            publisher.offer(BookingWire.booked(cluster.identity().key(), 0, nowMicros(), key, engine,
                worker.dpRank(), prefillTokens, Arrays.copyOf(sequenceHashes, count)));
        }
    }

    @Override
    public void onPrefillDone(long key) {
        publisher.offer(BookingWire.of(BookingWire.Kind.PREFILL_DONE, cluster.identity().key(), 0, key));
    }

    @Override
    public void onReleased(long key) {
        publisher.offer(BookingWire.of(BookingWire.Kind.RELEASED, cluster.identity().key(), 0, key));
    }

    @Override
    public void onRemoteApplied(RemoteBooking booking, boolean applied) {
        if (applied && booking.stamp() > 0) {
            lag.record(booking.stamp(), nowMicros());
        }
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Booking-to-application lag of the other replicas' bookings here. */
    public SyncLag lag() {
        return lag;
    }

    /** Other replicas' bookings the router counts now. */
    int remoteBookings() {
        ModelRouter attached = router;
        return attached == null ? 0 : attached.stats().remoteBookings();
    }

    /** The figures {@code /metrics} shows. */
    SyncCounts counts() {
        BookingApplier applying = applier;
        return new SyncCounts(publisher.published(), publisher.failures(), publisher.resyncs(),
            applying == null ? 0 : applying.received(), applying == null ? 0 : applying.unknownEngine(),
            applying == null ? 0 : applying.resyncsAsked(), applying == null ? 0 : applying.malformed());
    }

    @Override
    public void close() {
        publisher.close();
    }
}
