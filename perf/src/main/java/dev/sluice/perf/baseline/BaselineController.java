package dev.sluice.perf.baseline;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ErrorClass;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.spi.RequestClassifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An admission controller built the conventional way, the baseline the perf suite measures sluice against: one
 * router-wide {@link ReentrantLock} around classification, queueing, dispatch and lifecycle events; a
 * {@link PriorityBlockingQueue} per policy class (earliest deadline, then arrival order); and one platform thread per
 * deferred request, blocked in its continuation. Dispatch picks the least-loaded worker (a linear scan).
 *
 * <p>Thread-safe: every method may be called from any thread; listeners are called with the lock held, on the
 * submitting, completing or continuation thread, and must not block.
 */
public final class BaselineController {
    /** Hears exactly one outcome per submitted request. */
    public interface Listener {
        void onDispatched(long id, WorkerWithDpRank worker);

        void onRejected(long id, AdmissionError error);
    }

    private static final Comparator<BaselineRequest> ORDER =
        Comparator.comparingLong(BaselineRequest::dueAt).thenComparingLong(r -> r.seq);

    private final ReentrantLock lock = new ReentrantLock();
    private final RequestClassifier classifier;
    private final Map<String, PriorityBlockingQueue<BaselineRequest>> queues = new HashMap<>();
    private final List<PriorityBlockingQueue<BaselineRequest>> order = new ArrayList<>();
    private final Map<Long, BaselineRequest> live = new HashMap<>();
    private final Map<String, BaselineRequest> byRequestId = new HashMap<>();
    private final WorkerWithDpRank[] workers;
    private final int[] inFlight;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong deferralThreads = new AtomicLong();
    private long seq;
    private int nextClass;
    private boolean draining;

    /** A controller over {@code workerCount} workers, classifying with {@code classifier} under its lock. */
    public BaselineController(RequestClassifier classifier, int workerCount) {
        this.classifier = classifier;
        this.workers = new WorkerWithDpRank[workerCount];
        this.inFlight = new int[workerCount];
        for (int w = 0; w < workerCount; w++) {
            workers[w] = WorkerWithDpRank.of(w);
        }
    }

    /** Submits a request; returns its id. Classification runs on this thread under the lock. */
    public long submit(String requestId, long inputTokens, long ingressAt, Listener listener) {
        long id = ids.incrementAndGet();
        lock.lock();
        try {
            BaselineRequest request = new BaselineRequest(id, seq++, requestId, inputTokens, ingressAt, listener);
            if (byRequestId.putIfAbsent(requestId, request) != null) {
                listener.onRejected(id, AdmissionError.of(ErrorClass.CONFLICT));
                return id;
            }
            live.put(id, request);
            decide(request, classifier.classify(request));
        } finally {
            lock.unlock();
        }
        return id;
    }

    /** The instant engine finished {@code id} on {@code worker}: release it and dispatch what waits. */
    public void completed(long id, WorkerWithDpRank worker) {
        lock.lock();
        try {
            BaselineRequest request = live.remove(id);
            byRequestId.remove(request.requestId());
            inFlight[(int) worker.workerId()]--;
            classifier.onEvent(new ClassifyEvent.Completed(request.requestId(), worker, OptionalLong.empty()));
            drain();
        } finally {
            lock.unlock();
        }
    }

    /** Platform threads currently blocked in a deferral. */
    public long deferralThreads() {
        return deferralThreads.get();
    }

    private void decide(BaselineRequest request, Classification decision) {
        switch (decision.kind()) {
            case ADMIT -> {
                queue(request.policyClass()).add(request);
                drain();
            }
            case REJECT -> {
                live.remove(request.id);
                byRequestId.remove(request.requestId());
                request.listener.onRejected(request.id, decision.error());
            }
            case DEFER -> deferOnPlatformThread(request, decision);
            case PARK -> throw new UnsupportedOperationException("the baseline does not park");
            default -> throw new IllegalStateException(decision.toString());
        }
    }

    private void deferOnPlatformThread(BaselineRequest request, Classification decision) {
        deferralThreads.incrementAndGet();
        Thread thread = new Thread(() -> {
            Classification resumed;
            try {
                resumed = decision.continuation().resume(request);
            } catch (Exception e) {
                resumed = Classification.reject(AdmissionError.of(ErrorClass.INTERNAL));
            } finally {
                deferralThreads.decrementAndGet();
            }
            lock.lock();
            try {
                decide(request, resumed);
            } finally {
                lock.unlock();
            }
        }, "baseline-deferral-" + request.id);
        thread.setDaemon(true);
        thread.start();
    }

    private PriorityBlockingQueue<BaselineRequest> queue(String policyClass) {
        PriorityBlockingQueue<BaselineRequest> queue = queues.get(policyClass);
        if (queue == null) {
            queue = new PriorityBlockingQueue<>(64, ORDER);
            queues.put(policyClass, queue);
            order.add(queue);
        }
        return queue;
    }

    /** Dispatches queued requests round-robin over the classes, each to the least-loaded worker. */
    private void drain() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            int empty = 0;
            while (empty < order.size()) {
                PriorityBlockingQueue<BaselineRequest> queue = order.get(nextClass++ % order.size());
                BaselineRequest request = queue.poll();
                if (request == null) {
                    empty++;
                    continue;
                }
                empty = 0;
                int w = leastLoaded();
                inFlight[w]++;
                classifier.onEvent(new ClassifyEvent.Sent(request.requestId(), workers[w]));
                request.listener.onDispatched(request.id, workers[w]);
            }
        } finally {
            draining = false;
        }
    }

    private int leastLoaded() {
        int best = 0;
        for (int w = 1; w < inFlight.length; w++) {
            if (inFlight[w] < inFlight[best]) {
                best = w;
            }
        }
        return best;
    }
}
