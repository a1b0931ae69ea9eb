package dev.sluice.core.queue;

import dev.sluice.core.config.TenantFairness;
import org.agrona.collections.Object2IntHashMap;

/**
 * Virtual token counter (VTC) fairness inside one policy class: the class's shared lane split by tenant, and the
 * tenant charged least goes first. Each tracked tenant has a slot: its counter (the tokens it was served, weighted,
 * divided by its share weight), its own shared lane in the class order, and its place in a min-heap of the tenants
 * with queued shared entries (counter, then the enqueue sequence of its head). A dispatch charges the prompt (uncached
 * tokens at the prompt weight, cached at the cached weight); the end of service charges the generated tokens at the
 * output weight. A tenant whose lane was empty is lifted to the least counter of the tenants queued now (or, with
 * none, the last such least), so idle time earns no credit. Between equal counters the tenant with fewer requests in
 * service goes first (then the older head): a tenant returning from idle is lifted level with the busiest one, and
 * wins that tie instead of waiting one more dispatch behind a backlog that is older only because it never emptied.
 *
 * <p>Bounded: at most {@code max_tenants} named tenants are tracked. A new one takes the slot of the least recently
 * seen tenant that holds nothing (no entry queued, none in service); with every slot held it shares slot 0,
 * {@value #OTHER}, with the requests that name no tenant. All arrays are sized at construction; a warm class allocates
 * nothing (a new tenant's first lane is created once per slot).
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class TenantLanes {
    /**
     * Counters within this many times the largest charge of one request count as level for preemption: VTC bounds the
     * gap between backlogged tenants' service by twice one request's charge, prompt and output (Sheng et al., OSDI
     * '24).
     */
    static final double LEVEL_MARGIN = 2.0;
    /** A victim's tenant holds at least this many times the requests in service the preempting tenant holds. */
    static final int SERVICE_RATIO = 2;
    /** The slot of requests without a tenant, and of new tenants while every slot is held. */
    static final String OTHER = "(other)";

    private final ClassQueue owner;
    private final TenantFairness fairness;
    private final Object2IntHashMap<String> slots;
    private final String[] names;
    private final double[] counter;
    private final double[] served;
    private final double[] weight;
    private final Lane[] lanes;
    private final int[] holds;
    private final int[] inService;
    private final int[] lruPrev;
    private final int[] lruNext;
    private final int[] heap;
    private final int[] heapPos;
    private int heapSize;
    private int lruFirst = -1;
    private int lruLast = -1;
    private int used = 1;
    private int holding;
    private double floor;
    /** The largest counter increase one request has caused in these lanes (its prompt, then prompt and output). */
    private double largestRequest;
    int queued;

    TenantLanes(ClassQueue owner, TenantFairness fairness) {
        this.owner = owner;
        this.fairness = fairness;
        int n = fairness.maxTenants() + 1;
        this.slots = new Object2IntHashMap<>(Math.min(n * 2, 1 << 16), 0.65f, -1);
        this.names = new String[n];
        this.counter = new double[n];
        this.served = new double[n];
        this.weight = new double[n];
        this.lanes = new Lane[n];
        this.holds = new int[n];
        this.inService = new int[n];
        this.lruPrev = new int[n];
        this.lruNext = new int[n];
        this.heap = new int[n];
        this.heapPos = new int[n];
        java.util.Arrays.fill(heapPos, -1);
        names[0] = OTHER;
        weight[0] = 1.0;
    }

    /** Takes a slot for the entry's tenant (seen now) and, for a shared-lane entry, queues it in that tenant's lane. */
    void add(QueueEntry entry, boolean sharedLane) {
        int s = slotFor(entry.queueTenant());
        entry.tenantSlot = s;
        hold(s);
        if (!sharedLane) {
            return;
        }
        Lane lane = lanes[s];
        if (lane == null) {
            lane = new Lane(owner, null, null, s);
            lanes[s] = lane;
        }
        boolean wasEmpty = lane.size() == 0;
        boolean newHead = lane.add(entry);
        queued++;
        if (wasEmpty) {
            double least = heapSize > 0 ? counter[heap[0]] : floor;
            floor = Math.max(floor, least);
            counter[s] = Math.max(counter[s], least);
            heapInsert(s);
        } else if (newHead) {
            restore(s);
        }
    }

    /** Takes a tenant lane's entry out of it (dispatch, removal or expiry). */
    void removeFromLane(Lane lane, QueueEntry entry) {
        int s = lane.tenant;
        boolean wasHead = lane.remove(entry);
        queued--;
        if (lane.size() == 0) {
            heapRemove(s);
        } else if (wasHead) {
            restore(s);
        }
    }

    /** The entry left the queue without being served (removed, expired): its slot is no longer held for it. */
    void dropped(QueueEntry entry) {
        release(entry);
    }

    /** Charges the entry's prompt (once: not again after a retry) to its tenant; it holds the slot until ended. */
    void dispatched(QueueEntry entry) {
        int s = entry.tenantSlot;
        // The entry has left its lane already, so its tenant may have left the heap: the least is taken with it.
        double least = heapSize > 0 ? Math.min(counter[heap[0]], counter[s]) : counter[s];
        floor = Math.max(floor, least);
        inService[s]++;
        double prompt = entry.promptPaidTo == this ? 0 : promptCharge(entry);
        entry.promptPaidTo = null;
        largestRequest = Math.max(largestRequest, prompt / weight[s]);
        charge(s, prompt);
        entry.servedBy = this;
    }

    /** The dispatched entry's service ended after generating {@code outputTokens}: charged, and its slot released. */
    void ended(QueueEntry entry, long outputTokens) {
        if (entry.servedBy != this) {
            return;
        }
        entry.servedBy = null;
        int s = entry.tenantSlot;
        inService[s]--;
        double output = fairness.outputWeight() * Math.max(0, outputTokens);
        largestRequest = Math.max(largestRequest, (promptCharge(entry) + output) / weight[s]);
        charge(s, output);
        release(entry);
    }

    /** The best shared-lane head: the head of the tenant charged least, or {@code null}. */
    QueueEntry peek() {
        return heapSize == 0 ? null : lanes[heap[0]].peek();
    }

    /** Tenants with an entry queued or in service. */
    int activeTenants() {
        return holding;
    }

    /** A tenant's counter (its weighted service, lifted), or NaN when not tracked. */
    double counter(String tenant) {
        int s = tenant == null ? 0 : slots.getValue(tenant);
        return s < 0 ? Double.NaN : counter[s];
    }

    /** The head of the tenant ranked second (after {@link #peek}'s), or {@code null} with fewer than two queued. */
    QueueEntry runnerUp() {
        if (heapSize < 2) {
            return null;
        }
        int s = heapSize > 2 && less(heap[2], heap[1]) ? heap[2] : heap[1];
        return lanes[s].peek();
    }

    /**
     * Whether the tenant of {@code victim} (dispatched from these lanes, in service) is over-served against the
     * tenant of {@code head} (queued here): another tenant, charged at least as much as the head's tenant less
     * {@link #LEVEL_MARGIN} times the largest charge one request has caused here (VTC's own bound on counter gaps, so
     * a tenant charged for a request or two moments ago still counts as level), holding at least two more requests
     * in service, or one more and more requests queued, and at least {@link #SERVICE_RATIO} times as many in service.
     * Then taking one from it leaves the head's tenant neither holding more nor, level, queuing more, so the victim's
     * tenant may not take it straight back; and backlogged tenants holding about as much never preempt each other
     * over a passing lead (each preemption stays charged to the victim's tenant: taken often, it would push that
     * tenant below its share). Returns how many more requests the victim's tenant holds in service than the head's
     * (1 or above), else -1: the tenant holding the most capacity loses first, not the one whose counter happens to be
     * highest within the margin.
     */
    int overServed(QueueEntry victim, QueueEntry head) {
        int v = victim.tenantSlot;
        int h = head.tenantSlot;
        if (victim.servedBy != this || h < 0 || v == h
            || counter[v] + LEVEL_MARGIN * largestRequest < counter[h]) {
            return -1;
        }
        int lead = inService[v] - inService[h];
        if (lead < 1 || (lead == 1 && queuedIn(v) <= queuedIn(h)) || inService[v] < SERVICE_RATIO * inService[h]) {
            return -1;
        }
        return lead;
    }

    private double promptCharge(QueueEntry entry) {
        return fairness.promptWeight() * entry.uncachedTokens() + fairness.cachedWeight() * entry.cachedTokens();
    }

    private int queuedIn(int s) {
        return lanes[s] == null ? 0 : lanes[s].size();
    }

    /**
     * The shares of all tracked service held by the {@code out.length} most served tenants, largest first (zeros
     * when fewer); O(tenants · k), for metrics.
     */
    void topShares(double[] out) {
        java.util.Arrays.fill(out, 0.0);
        double total = 0;
        for (int s = 0; s < used; s++) {
            double v = served[s];
            total += v;
            for (int k = 0; k < out.length; k++) {
                if (v > out[k]) {
                    System.arraycopy(out, k, out, k + 1, out.length - k - 1);
                    out[k] = v;
                    break;
                }
            }
        }
        if (total > 0) {
            for (int k = 0; k < out.length; k++) {
                out[k] /= total;
            }
        }
    }

    private void charge(int s, double tokens) {
        served[s] += tokens;
        counter[s] += tokens / weight[s];
        if (heapPos[s] >= 0) {
            restore(s);
        }
    }

    private void hold(int s) {
        if (holds[s]++ == 0) {
            holding++;
        }
    }

    private void release(QueueEntry entry) {
        int s = entry.tenantSlot;
        if (s >= 0 && --holds[s] == 0) {
            holding--;
        }
    }

    private int slotFor(String tenant) {
        if (tenant == null) {
            return 0;
        }
        int s = slots.getValue(tenant);
        if (s < 0) {
            s = admit(tenant);
            if (s == 0) {
                return 0;
            }
        } else {
            lruUnlink(s);
        }
        lruPushFirst(s);
        return s;
    }

    /** A slot for a tenant not tracked: a fresh one, else the least recently seen that holds nothing, else 0. */
    private int admit(String tenant) {
        int s;
        if (used < names.length) {
            s = used++;
        } else {
            s = lruLast;
            while (s >= 0 && holds[s] > 0) {
                s = lruPrev[s];
            }
            if (s < 0) {
                return 0;
            }
            lruUnlink(s);
            slots.removeKey(names[s]);
        }
        names[s] = tenant;
        counter[s] = 0;
        served[s] = 0;
        inService[s] = 0;
        weight[s] = fairness.weightOf(tenant);
        slots.put(tenant, s);
        return s;
    }

    private void lruPushFirst(int s) {
        lruPrev[s] = -1;
        lruNext[s] = lruFirst;
        if (lruFirst >= 0) {
            lruPrev[lruFirst] = s;
        }
        lruFirst = s;
        if (lruLast < 0) {
            lruLast = s;
        }
    }

    private void lruUnlink(int s) {
        int p = lruPrev[s];
        int n = lruNext[s];
        if (p >= 0) {
            lruNext[p] = n;
        } else {
            lruFirst = n;
        }
        if (n >= 0) {
            lruPrev[n] = p;
        } else {
            lruLast = p;
        }
    }

    private boolean less(int a, int b) {
        if (counter[a] != counter[b]) {
            return counter[a] < counter[b];
        }
        if (inService[a] != inService[b]) {
            return inService[a] < inService[b];
        }
        return lanes[a].peek().sequence < lanes[b].peek().sequence;
    }

    private void heapInsert(int s) {
        heap[heapSize] = s;
        heapPos[s] = heapSize;
        siftUp(heapSize++);
    }

    private void heapRemove(int s) {
        int at = heapPos[s];
        heapPos[s] = -1;
        int last = heap[--heapSize];
        if (at != heapSize) {
            heap[at] = last;
            heapPos[last] = at;
            restore(last);
        }
    }

    private void restore(int s) {
        int at = heapPos[s];
        if (at > 0 && less(s, heap[(at - 1) >>> 1])) {
            siftUp(at);
        } else {
            siftDown(at);
        }
    }

    private void siftUp(int at) {
        int s = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            int above = heap[parent];
            if (!less(s, above)) {
                break;
            }
            heap[at] = above;
            heapPos[above] = at;
            at = parent;
        }
        heap[at] = s;
        heapPos[s] = at;
    }

    private void siftDown(int at) {
        int s = heap[at];
        int half = heapSize >>> 1;
        while (at < half) {
            int child = 2 * at + 1;
            int right = child + 1;
            if (right < heapSize && less(heap[right], heap[child])) {
                child = right;
            }
            if (!less(heap[child], s)) {
                break;
            }
            heap[at] = heap[child];
            heapPos[heap[at]] = at;
            at = child;
        }
        heap[at] = s;
        heapPos[s] = at;
    }
}
