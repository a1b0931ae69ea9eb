package dev.sluice.core.scheduler;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.RemoteBooking;
import dev.sluice.core.select.ActiveSequences;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

/**
 * Other router replicas' bookings, held in the same {@link ActiveSequences} as the router's own, so busy gating and
 * placement count them as load. Each one gets a key of its own there, counting down from -1 (the router's own keys
 * are lifecycle ids, positive), and is found again by its replica and the replica's key.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class RemoteBookings {
    /** One remote booking: its key in {@link ActiveSequences} and its worker. */
    private record Held(long localKey, WorkerWithDpRank worker) {
    }

    private final ActiveSequences active;
    private final Object2ObjectHashMap<String, Long2ObjectHashMap<Held>> byReplica = new Object2ObjectHashMap<>();
    private long nextKey = -1;
    private int size;

    RemoteBookings(ActiveSequences active) {
        this.active = active;
    }

    /** Books {@code booking}; false (nothing changes) when the replica's key is already booked. */
    boolean book(RemoteBooking booking) {
        Long2ObjectHashMap<Held> held = byReplica.computeIfAbsent(booking.replica(), r -> new Long2ObjectHashMap<>());
        if (held.containsKey(booking.key())) {
            return false;
        }
        long localKey = nextKey--;
        long[] hashes = booking.sequenceHashes();
        active.add(localKey, booking.worker(), hashes, hashes.length, booking.prefillTokens());
        if (booking.prefillTokens() == 0) {
            active.prefillCompleted(localKey);
        }
        held.put(booking.key(), new Held(localKey, booking.worker()));
        size++;
        return true;
    }

    /** The replica's request {@code key} produced its first token; its worker, or null when not booked here. */
    WorkerWithDpRank prefillDone(String replica, long key) {
        Held held = find(replica, key);
        return held != null && active.prefillCompleted(held.localKey) ? held.worker : null;
    }

    /** The replica's request {@code key} ended; its worker, or null when not booked here. */
    WorkerWithDpRank release(String replica, long key) {
        Long2ObjectHashMap<Held> held = byReplica.get(replica);
        Held gone = held == null ? null : held.remove(key);
        if (gone == null) {
            return null;
        }
        active.free(gone.localKey);
        size--;
        if (held.isEmpty()) {
            byReplica.remove(replica);
        }
        return gone.worker;
    }

    /** Releases every booking of {@code replica} (it is gone, or will send them all again); false if it had none. */
    boolean forget(String replica) {
        Long2ObjectHashMap<Held> held = byReplica.remove(replica);
        if (held == null) {
            return false;
        }
        held.values().forEach(h -> active.free(h.localKey));
        size -= held.size();
        return true;
    }

    /** Remote bookings held, over all replicas. */
    int size() {
        return size;
    }

    private Held find(String replica, long key) {
        Long2ObjectHashMap<Held> held = byReplica.get(replica);
        return held == null ? null : held.get(key);
    }
}
