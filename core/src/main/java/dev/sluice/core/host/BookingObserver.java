package dev.sluice.core.host;

import dev.sluice.core.api.WorkerWithDpRank;

/**
 * Hears the router's own bookings of worker load, so a host can share them with other router replicas (which apply
 * them as {@link RemoteBooking}s), and hears each remote booking applied. A booking is made when a request is placed
 * on a worker: its blocks and its uncached prompt tokens count in that worker's load; its prefill tokens leave when
 * its first token arrives; everything leaves when it ends.
 *
 * <p>Called on the scheduler thread: an implementation must not block (hand the booking to another thread). An
 * exception is logged and the router serves on. Arrays are valid only during the call.
 */
public interface BookingObserver {
    /** Hears nothing. */
    BookingObserver NONE = new BookingObserver() { };

    /**
     * The router booked request {@code key} on {@code worker}: blocks {@code sequenceHashes[0 .. count)} and
     * {@code prefillTokens} uncached prompt tokens.
     */
    default void onBooked(long key, WorkerWithDpRank worker, long[] sequenceHashes, int count, long prefillTokens) {
    }

    /** The first token of booked request {@code key} arrived: its prefill tokens left the worker's load. */
    default void onPrefillDone(long key) {
    }

    /** Booked request {@code key} ended: everything it booked was released. */
    default void onReleased(long key) {
    }

    /**
     * Another replica's booking was taken into the worker table ({@code applied}), or dropped because its worker is
     * not registered here or its key is already booked.
     */
    default void onRemoteApplied(RemoteBooking booking, boolean applied) {
    }
}
