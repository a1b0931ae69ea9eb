package dev.sluice.plugins.ratelimit;

/**
 * One dimension (requests or tokens) of a tenant's share of a cluster budget, as this replica holds it: the units
 * claimed from the shared bucket and not yet spent. The balance goes negative when completion tokens are charged
 * after the fact; the next claim pays that debt first. Guarded by the owning {@link ClusterTenant}'s lock.
 */
final class ClusterLease {
    final String key;
    final long limit;
    final long chunk;
    /** Units this replica may spend without asking the store; negative: debt. */
    long balance;
    /** On the router's clock: until when the shared bucket said it had too little (a claim then is pointless). */
    long deniedUntil = Long.MIN_VALUE;

    ClusterLease(String key, long limit, long chunk) {
        this.key = key;
        this.limit = limit;
        this.chunk = chunk;
    }

    /** What {@code units} cost: an oversized request is charged the whole limit, as the local bucket does. */
    long cost(long units) {
        return Math.min(units, limit);
    }

    boolean covers(long units) {
        return balance >= cost(units);
    }

    /** Nanoseconds until a claim could get {@code units}, as far as the last denial says; 0 when it may try. */
    long deniedWait(long units, long nowNs) {
        return covers(units) || deniedUntil <= nowNs ? 0 : deniedUntil - nowNs;
    }

    /** The units above one chunk, taken off the balance, to give back to the store (0 if none). */
    long trimExcess() {
        long excess = balance - chunk;
        if (excess <= 0) {
            return 0;
        }
        balance = chunk;
        return excess;
    }
}
