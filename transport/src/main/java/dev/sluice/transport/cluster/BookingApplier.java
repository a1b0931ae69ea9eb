package dev.sluice.transport.cluster;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.router.ModelRouter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the other replicas' booking messages of one model to this replica's router, which takes them on its
 * scheduler thread ({@link ModelRouter#remoteBooked} and the like). It follows each sender's numbered stream: a
 * sender first heard mid-stream (this replica started or reconnected later), a number skipped (a message lost while
 * NATS was away), or a heartbeat announcing messages never received means this replica's view of the sender is
 * incomplete, so it drops all of that sender's bookings and asks it to resync (a {@code RESET} and its live
 * bookings follow); one request per sender until the RESET arrives or a lease passes.
 *
 * <p>Thread-safe (synchronized: NATS' dispatcher thread, the lease timer).
 */
final class BookingApplier {
    private static final Logger LOG = LoggerFactory.getLogger(BookingApplier.class);

    /** What this replica knows of one sender's stream. */
    private static final class Stream {
        long lastSeq;
        long resyncAskedAtNs = Long.MIN_VALUE;
        boolean awaitingReset;
    }

    private final String self;
    private final ModelRouter router;
    private final WorkerAddresses addresses;
    private final Consumer<String> askResync;
    private final long leaseNs;
    private final Map<String, Stream> streams = new HashMap<>();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong unknownEngine = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong resyncsAsked = new AtomicLong();

    BookingApplier(String self, ModelRouter router, WorkerAddresses addresses, Consumer<String> askResync,
                   long leaseNs) {
        this.self = self;
        this.router = router;
        this.addresses = addresses;
        this.askResync = askResync;
        this.leaseNs = leaseNs;
    }

    /** A message on the model's bookings subject. */
    synchronized void onMessage(byte[] data, long nowNs) {
        BookingWire message;
        try {
            message = BookingWire.decode(data);
        } catch (IllegalArgumentException e) {
            if (malformed.getAndIncrement() % 1000 == 0) {
                LOG.warn("NATS: dropped a booking message: {}", e.getMessage());
            }
            return;
        }
        if (message.replica().equals(self)) {
            return;
        }
        received.incrementAndGet();
        Stream stream = streams.get(message.replica());
        if (message.kind() == BookingWire.Kind.RESET) {
            stream = streams.computeIfAbsent(message.replica(), r -> new Stream());
            stream.awaitingReset = false;
            stream.lastSeq = message.seq();
            router.remoteReplicaGone(message.replica());
            return;
        }
        if (stream == null) {
            stream = new Stream();
            streams.put(message.replica(), stream);
            if (message.seq() != 1) {
                incomplete(message.replica(), stream, nowNs, "first heard at message " + message.seq());
            }
        } else if (message.seq() != stream.lastSeq + 1) {
            incomplete(message.replica(), stream, nowNs, "message " + message.seq() + " after " + stream.lastSeq);
        }
        stream.lastSeq = message.seq();
        apply(message);
    }

    private void apply(BookingWire message) {
        switch (message.kind()) {
            case BOOKED -> {
                long worker = addresses.worker(message.engine());
                if (worker < 0) {
                    unknownEngine.incrementAndGet();
                    return;
                }
                router.remoteBooked(new RemoteBooking(message.replica(), message.key(),
                    new WorkerWithDpRank(worker, message.dpRank()), message.hashes(), message.prefillTokens(),
                    message.sentMicros()));
            }
            case PREFILL_DONE -> router.remotePrefillDone(message.replica(), message.key());
            case RELEASED -> router.remoteReleased(message.replica(), message.key());
            case RESET -> router.remoteReplicaGone(message.replica());
        }
    }

    /** A sender's heartbeat: it has published up to {@code lastSeq} on this model's stream. */
    synchronized void onHeartbeat(String replica, long lastSeq, long nowNs) {
        if (replica.equals(self) || lastSeq <= 0) {
            return;
        }
        Stream stream = streams.get(replica);
        if (stream == null) {
            stream = new Stream();
            streams.put(replica, stream);
            incomplete(replica, stream, nowNs, "first heard in a heartbeat at message " + lastSeq);
            stream.lastSeq = lastSeq;
        } else if (lastSeq > stream.lastSeq) {
            incomplete(replica, stream, nowNs, "a heartbeat at message " + lastSeq + ", received " + stream.lastSeq);
        }
    }

    /** The sender's lease ran out: its bookings go, and its stream is forgotten. */
    synchronized void onGone(String replica) {
        streams.remove(replica);
        router.remoteReplicaGone(replica);
    }

    private void incomplete(String replica, Stream stream, long nowNs, String why) {
        if (stream.awaitingReset && nowNs - stream.resyncAskedAtNs < leaseNs) {
            return;
        }
        LOG.info("NATS: bookings of replica {} incomplete here ({}); asking it to resync", replica, why);
        router.remoteReplicaGone(replica);
        stream.awaitingReset = true;
        stream.resyncAskedAtNs = nowNs;
        resyncsAsked.incrementAndGet();
        askResync.accept(replica);
    }

    long received() {
        return received.get();
    }

    long unknownEngine() {
        return unknownEngine.get();
    }

    long malformed() {
        return malformed.get();
    }

    long resyncsAsked() {
        return resyncsAsked.get();
    }
}
