package dev.sluice.core.host;

import dev.sluice.core.api.WorkerWithDpRank;
import java.util.Objects;

/**
 * A booking another router replica made: it placed its request {@code key} on {@code worker} with the blocks
 * {@code sequenceHashes} (a chain from the first block, as {@link dev.sluice.core.kv.BlockHasher#sequenceHashes}
 * makes them) and {@code prefillTokens} uncached prompt tokens still to prefill. The router counts it in that
 * worker's load, exactly as its own bookings, until the replica releases it or is gone
 * (the router's {@code remoteReplicaGone}). Immutable; the array is the caller's and must not
 * change once given.
 *
 * @param replica        the other replica's identity (its id and incarnation: keys of two replicas never clash).
 * @param key            the replica's own key for the request, unique among its live bookings.
 * @param worker         the rank in this router's numbering.
 * @param sequenceHashes the request's block sequence hashes.
 * @param prefillTokens  prompt tokens the worker still has to prefill (0 once the first token came).
 * @param stamp          the host's own mark (the sending time, say), handed back to
 *                       {@link BookingObserver#onRemoteApplied}; the router does not read it.
 */
public record RemoteBooking(String replica, long key, WorkerWithDpRank worker, long[] sequenceHashes,
                            long prefillTokens, long stamp) {
    /** Validates: a replica, a worker and hashes, no negative prefill. */
    public RemoteBooking {
        Objects.requireNonNull(replica, "replica");
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(sequenceHashes, "sequenceHashes");
        if (prefillTokens < 0) {
            throw new IllegalArgumentException("prefillTokens must be >= 0, was " + prefillTokens);
        }
    }
}
