package dev.sluice.plugins.ratelimit;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.BudgetGrant;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.api.Wakeup;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One tenant's cluster budget on this replica: a {@link ClusterLease} per limited dimension, the requests parked
 * while a claim is out, and the local fallback buckets used while the store is unreachable. A request the leases
 * cover is admitted at once, on the scheduler thread, without I/O; otherwise it parks (no thread held) and one claim
 * per tenant goes to the store; its completion, on the store's thread, admits the parked requests in arrival order
 * through their {@link Wakeup}s, or rejects them.
 *
 * <p>Shared between the scheduler thread and the store's completion threads: every field is guarded by this
 * object's lock, held only for arithmetic, never across a store call or a wake-up.
 */
final class ClusterTenant {
    /** A claim to send: per dimension the least that serves the first parked request and the most worth holding. */
    record Claim(long requestsMin, long requestsMax, long tokensMin, long tokensMax) {
    }

    private record Waiter(ClassifyRequest request, Wakeup wakeup, long tokens) {
    }

    /** A parked request's answer; {@code error == null} admits. */
    private record Decision(Waiter waiter, AdmissionError error) {
    }

    private final ClusterLimiter limiter;
    private final String name;
    private final ClusterLease requests;
    private final ClusterLease tokens;
    private final TenantBuckets fallback;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private boolean claimOut;
    private boolean partitioned;
    private long probeAt;

    ClusterTenant(ClusterLimiter limiter, String name, ClusterLease requests, ClusterLease tokens,
                  TenantBuckets fallback) {
        this.limiter = limiter;
        this.name = name;
        this.requests = requests;
        this.tokens = tokens;
        this.fallback = fallback;
    }

    /** Decides one request on the scheduler thread: admit from the leases, reject, or park for a claim. */
    Classification classify(ClassifyRequest request, long nowNs) {
        Classification answer;
        Claim claim = null;
        long cost = request.inputTokens();
        synchronized (this) {
            if (partitioned) {
                if (!claimOut && nowNs >= probeAt) {
                    claimOut = true;
                    claim = probe();
                }
                AdmissionError error = fallbackDecision(cost, nowNs);
                answer = error == null ? Classification.admit(request) : Classification.reject(error);
            } else if (waiters.isEmpty() && covers(cost)) {
                take(cost);
                answer = Classification.admit(request);
            } else {
                long wait = waiters.isEmpty() ? deniedWait(cost, nowNs) : 0;
                if (wait > 0) {
                    answer = Classification.reject(limiter.limited(name, exceeded(cost, nowNs), wait));
                } else {
                    waiters.add(new Waiter(request, request.wakeup(), cost));
                    if (!claimOut) {
                        claimOut = true;
                        claim = plan();
                    }
                    answer = Classification.park(request, nowNs + limiter.parkNs(), limiter.unavailable(name));
                }
            }
        }
        if (claim != null) {
            limiter.send(this, claim);
        }
        return answer;
    }

    /**
     * The store answered a claim (any thread). A grant of a dimension that failed is {@code null}; {@code failure}
     * is set when any part failed or timed out, and the tenant then follows the fail policy until a probe succeeds.
     */
    void onClaimed(BudgetGrant requestsGrant, BudgetGrant tokensGrant, Throwable failure) {
        long now = limiter.now();
        List<Decision> decisions = new ArrayList<>();
        Claim next = null;
        long[] refunds;
        synchronized (this) {
            claimOut = false;
            credit(requests, requestsGrant, now);
            credit(tokens, tokensGrant, now);
            if (failure != null) {
                limiter.storeFailed(name, failure, !partitioned);
                partitioned = true;
                probeAt = now + limiter.settings().retryNs();
                for (Waiter w : waiters) {
                    decisions.add(new Decision(w, fallbackDecision(w.tokens(), now)));
                }
                waiters.clear();
            } else {
                if (partitioned) {
                    limiter.storeRecovered(name);
                    partitioned = false;
                }
                next = serve(now, decisions);
            }
            refunds = trim();
        }
        for (Decision d : decisions) {
            boolean taken = d.error() == null ? d.waiter().wakeup().admit() : d.waiter().wakeup().reject(d.error());
            if (!taken && d.error() == null && !partitioned()) {
                giveBack(d.waiter().tokens());
            }
        }
        limiter.refund(this, refunds);
        if (next != null) {
            limiter.send(this, next);
        }
    }

    /** Charges generated tokens after the fact (scheduler thread); the lease may go into debt. */
    synchronized void chargeTokens(long count, long nowNs) {
        if (tokens != null) {
            tokens.balance -= count;
        }
        if (partitioned) {
            fallback.chargeTokens(count, nowNs);
        }
    }

    /** Gives back what this replica holds, when the tenant is forgotten; a tenant with a claim out keeps it. */
    void release() {
        long[] refunds;
        synchronized (this) {
            if (claimOut || !waiters.isEmpty()) {
                return;
            }
            refunds = new long[] {balanceOf(requests), balanceOf(tokens)};
            zero(requests);
            zero(tokens);
        }
        limiter.refund(this, refunds);
    }

    ClusterLease requests() {
        return requests;
    }

    ClusterLease tokens() {
        return tokens;
    }

    /** Units held unspent, by dimension ({@code -1} without that limit); for tests. */
    synchronized long[] balances() {
        return new long[] {requests == null ? -1 : requests.balance, tokens == null ? -1 : tokens.balance};
    }

    synchronized boolean partitioned() {
        return partitioned;
    }

    synchronized int parked() {
        return waiters.size();
    }

    private Claim serve(long now, List<Decision> decisions) {
        while (!waiters.isEmpty() && covers(waiters.peekFirst().tokens())) {
            Waiter head = waiters.pollFirst();
            take(head.tokens());
            decisions.add(new Decision(head, null));
        }
        if (waiters.isEmpty()) {
            return null;
        }
        long head = waiters.peekFirst().tokens();
        long wait = deniedWait(head, now);
        if (wait > 0) {
            AdmissionError error = limiter.limited(name, exceeded(head, now), wait);
            for (Waiter w : waiters) {
                decisions.add(new Decision(w, error));
            }
            waiters.clear();
            return null;
        }
        claimOut = true;
        return plan();
    }

    private Claim plan() {
        long head = waiters.peekFirst().tokens();
        long requestDemand = waiters.size();
        long tokenDemand = 0;
        for (Waiter w : waiters) {
            tokenDemand += tokens == null ? 0 : tokens.cost(w.tokens());
        }
        return new Claim(min(requests, 1), max(requests, requestDemand), min(tokens, head), max(tokens, tokenDemand));
    }

    private Claim probe() {
        return new Claim(0, requests == null ? 0 : requests.chunk, 0, tokens == null ? 0 : tokens.chunk);
    }

    private static long min(ClusterLease lease, long head) {
        return lease == null ? 0 : Math.max(0, lease.cost(head) - lease.balance);
    }

    private static long max(ClusterLease lease, long demand) {
        if (lease == null || demand <= lease.balance) {
            return 0;
        }
        return Math.min(lease.limit, demand - lease.balance + lease.chunk);
    }

    private AdmissionError fallbackDecision(long cost, long now) {
        if (limiter.settings().failPolicy() == ClusterSettings.FailPolicy.CLOSED) {
            return limiter.unavailable(name);
        }
        long wait = fallback.waitFor(cost, now);
        if (wait > 0) {
            return limiter.limited(name, "replica share of its " + fallback.exceeded(cost, now), wait);
        }
        fallback.charge(cost, now);
        return null;
    }

    /** A parked request admitted from the leases ended before its wake-up: its units go back, the excess home. */
    private void giveBack(long cost) {
        long[] refunds;
        synchronized (this) {
            if (requests != null) {
                requests.balance += 1;
            }
            if (tokens != null) {
                tokens.balance += tokens.cost(cost);
            }
            refunds = trim();
        }
        limiter.refund(this, refunds);
    }

    private long[] trim() {
        if (!waiters.isEmpty()) {
            return null;
        }
        return new long[] {requests == null ? 0 : requests.trimExcess(), tokens == null ? 0 : tokens.trimExcess()};
    }

    private boolean covers(long cost) {
        return (requests == null || requests.covers(1)) && (tokens == null || tokens.covers(cost));
    }

    private void take(long cost) {
        if (requests != null) {
            requests.balance -= 1;
        }
        if (tokens != null) {
            tokens.balance -= tokens.cost(cost);
        }
    }

    private long deniedWait(long cost, long now) {
        long wait = requests == null ? 0 : requests.deniedWait(1, now);
        return tokens == null ? wait : Math.max(wait, tokens.deniedWait(cost, now));
    }

    private String exceeded(long cost, long now) {
        boolean byRequests = requests != null && requests.deniedWait(1, now) > 0;
        return byRequests ? "cluster requests_per_minute (" + requests.limit + ")"
            : "cluster tokens_per_minute (" + (tokens == null ? 0 : tokens.limit) + ")";
    }

    private static void credit(ClusterLease lease, BudgetGrant grant, long now) {
        if (lease == null || grant == null) {
            return;
        }
        lease.balance += grant.units();
        if (grant.denied()) {
            lease.deniedUntil = now + grant.retryAfterNanos();
        }
    }

    private static long balanceOf(ClusterLease lease) {
        return lease == null ? 0 : Math.max(0, lease.balance);
    }

    private static void zero(ClusterLease lease) {
        if (lease != null && lease.balance > 0) {
            lease.balance = 0;
        }
    }
}
