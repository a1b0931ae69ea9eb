package dev.sluice.core.scheduler;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.core.kv.KvEvent;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.BitUtil;
import org.agrona.concurrent.NanoClock;

/**
 * Sends commands to one router's scheduler over its ingress ring (a Disruptor multi-producer ring buffer), from any
 * thread, one method per command, as Aeron's {@code SenderProxy} does for its owner. Each message is published the way
 * the Disruptor's {@code RingBuffer.translateAndPublish} does it: claim a slot, fill it with plain stores that cannot
 * throw, publish it in a {@code finally}, so a claimed slot is always published and the ring can never wedge. The
 * Disruptor's generic translators take their arguments as objects and would box every lifecycle id, so the two claims
 * live here: {@link #tryArrive} never waits (a full ring, or one with only the lifecycle reserve left, is the caller's
 * typed capacity rejection), and every other message waits for a slot, which the reserve keeps short. Callers check
 * their arguments before calling; nothing here rejects an argument once a slot is claimed.
 *
 * <p>Thread-safe; lock-free. After {@link #close()} messages are dropped, and a producer waiting for a slot gives up.
 */
public final class IngressProxy {
    private final RingBuffer<IngressEvent> ring;
    private final int arrivalReserve;
    private final Runnable published;
    /** Takes arrivals on an idle scheduler without the ring ({@code combine}), or {@code null}. */
    private final CombiningScheduler combining;
    private volatile boolean closed;

    /**
     * @param slots     ring size, a power of two of at least 16; arrivals stop while a quarter of it is left, so
     *                  lifecycle messages always find a slot quickly.
     * @param scheduler woken after each publish, so an idle scheduler takes the message at once.
     */
    public IngressProxy(int slots, WakeableIdleStrategy scheduler) {
        this(slots, scheduler::wake);
    }

    /**
     * @param slots     as above.
     * @param published run after each publish, on the producer's thread (wakes or runs the scheduler).
     */
    public IngressProxy(int slots, Runnable published) {
        this(slots, published, null);
    }

    /**
     * For {@code scheduler_idle: combine}: an arrival on an idle scheduler is handed to {@code combining} without a
     * ring slot ({@link CombiningScheduler#arriveIfIdle}); every other message is published and then runs or leaves
     * the cycle through {@link CombiningScheduler#afterPublish}.
     *
     * @param slots as above.
     */
    public IngressProxy(int slots, CombiningScheduler combining) {
        this(slots, combining::afterPublish, combining);
    }

    private IngressProxy(int slots, Runnable published, CombiningScheduler combining) {
        if (!BitUtil.isPowerOfTwo(slots) || slots < 16) {
            throw new IllegalArgumentException("ringSize must be a power of two >= 16, was " + slots);
        }
        this.ring = RingBuffer.createMultiProducer(IngressEvent::new, slots, new BusySpinWaitStrategy());
        this.arrivalReserve = slots / 4;
        this.published = published;
        this.combining = combining;
    }

    RingBuffer<IngressEvent> ring() {
        return ring;
    }

    /**
     * Publishes an arrival (or, combining, hands it to an idle scheduler's cycle) unless the ring is closed or short
     * of room; false means refuse it as capacity.
     */
    public boolean tryArrive(long lifecycleId, long ingressAt, AdmissionRequest request, AdmissionListener listener) {
        if (closed) {
            return false;
        }
        if (combining != null && combining.arriveIfIdle(lifecycleId, ingressAt, request, listener)) {
            return true;
        }
        return publishArrival(lifecycleId, ingressAt, request, listener);
    }

    /**
     * As {@link #tryArrive}, for an arrival at the moment of this call on {@code clock}: an idle scheduler's cycle
     * that takes it directly stamps it with that cycle's own clock reading (one read for both), else it is stamped
     * here and published.
     */
    public boolean tryArriveNow(long lifecycleId, AdmissionRequest request, AdmissionListener listener,
                                NanoClock clock) {
        if (closed) {
            return false;
        }
        if (combining != null
            && combining.arriveIfIdle(lifecycleId, CombiningScheduler.Scheduled.NOW, request, listener)) {
            return true;
        }
        return publishArrival(lifecycleId, clock.nanoTime(), request, listener);
    }

    private boolean publishArrival(long lifecycleId, long ingressAt, AdmissionRequest request,
                                   AdmissionListener listener) {
        if (ring.remainingCapacity() <= arrivalReserve) {
            return false;
        }
        long sequence;
        try {
            sequence = ring.tryNext();
        } catch (InsufficientCapacityException e) {
            return false;
        }
        try {
            ring.get(sequence).arrival(lifecycleId, ingressAt, request, listener);
        } finally {
            ring.publish(sequence);
        }
        published.run();
        return true;
    }

    public void responding(long lifecycleId) {
        publish(IngressEvent.Type.RESPONDING, lifecycleId, 0, 0, null);
    }

    public void completed(long lifecycleId) {
        publish(IngressEvent.Type.COMPLETED, lifecycleId, 0, 0, null);
    }

    /** {@code cause} may be null. */
    public void aborted(long lifecycleId, Throwable cause) {
        publish(IngressEvent.Type.ABORTED, lifecycleId, 0, 0, cause);
    }

    public void contextTokens(long lifecycleId, long tokens) {
        publish(IngressEvent.Type.CONTEXT_TOKENS, lifecycleId, tokens, 0, null);
    }

    public void outputTokens(long lifecycleId, long tokens) {
        publish(IngressEvent.Type.OUTPUT_TOKENS, lifecycleId, tokens, 0, null);
    }

    public void retry(long lifecycleId) {
        publish(IngressEvent.Type.RETRY, lifecycleId, 0, 0, null);
    }

    public void workerJoined(WorkerWithDpRank worker, long maxNumBatchedTokens, OptionalLong totalKvBlocks) {
        publish(IngressEvent.Type.WORKER_JOIN, 0, maxNumBatchedTokens,
            totalKvBlocks.isPresent() ? totalKvBlocks.getAsLong() : -1, worker);
    }

    public void workerLeft(WorkerWithDpRank worker) {
        publish(IngressEvent.Type.WORKER_LEAVE, 0, 0, 0, worker);
    }

    public void kvEvent(KvEvent event) {
        publish(IngressEvent.Type.KV_EVENT, 0, 0, 0, event);
    }

    public void workerLoad(WorkerLoad load) {
        publish(IngressEvent.Type.WORKER_LOAD, 0, 0, 0, load);
    }

    /** Another replica's booking to count in its worker's load. */
    public void remoteBooked(RemoteBooking booking) {
        publish(IngressEvent.Type.REMOTE_BOOKED, 0, 0, 0, booking);
    }

    /** Another replica's request {@code key} produced its first token. */
    public void remotePrefillDone(String replica, long key) {
        publish(IngressEvent.Type.REMOTE_PREFILL_DONE, key, 0, 0, replica);
    }

    /** Another replica's request {@code key} ended. */
    public void remoteReleased(String replica, long key) {
        publish(IngressEvent.Type.REMOTE_RELEASED, key, 0, 0, replica);
    }

    /** Another replica is gone (or sends its bookings anew): release all of its bookings. */
    public void remoteReplicaGone(String replica) {
        publish(IngressEvent.Type.REMOTE_GONE, 0, 0, 0, replica);
    }

    /** A validated policy for the scheduler to take over between two duty cycles. */
    public void reload(PolicyReload reload) {
        publish(IngressEvent.Type.RELOAD, 0, 0, 0, reload);
    }

    public void drain() {
        publish(IngressEvent.Type.DRAIN, 0, 0, 0, null);
    }

    /** Stops publishing: later messages are dropped and a producer waiting for a slot returns. */
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    /** True when the ring holds a message the scheduler has not taken yet (any thread). */
    boolean hasPending(long consumed) {
        return ring.getCursor() > consumed;
    }

    private void publish(IngressEvent.Type type, long lifecycleId, long value, long value2, Object subject) {
        long sequence;
        while (true) {
            if (closed) {
                return;
            }
            try {
                sequence = ring.tryNext();
                break;
            } catch (InsufficientCapacityException e) {
                // Lifecycle messages are never dropped while the router runs: arrivals leave the reserve free and
                // the scheduler drains the ring continuously, so this wait is short. Park as the Disruptor's own
                // next() does: a virtual-thread producer then frees its carrier.
                LockSupport.parkNanos(1);
            }
        }
        try {
            ring.get(sequence).message(type, lifecycleId, value, value2, subject);
        } finally {
            ring.publish(sequence);
        }
        published.run();
    }
}
