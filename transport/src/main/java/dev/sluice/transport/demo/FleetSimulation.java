package dev.sluice.transport.demo;

import dev.sluice.core.api.AdmissionError;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PolicyProfile;
import dev.sluice.core.host.AdmissionListener;
import dev.sluice.core.router.ModelRouter;
import java.util.List;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Drives a manual {@link ModelRouter} on a virtual clock with a small fleet model: each worker prefills one request
 * at a time at a fixed token rate, then decodes at a fixed time per token. Every admission decision is the real
 * core's; only the engines are simulated. Single-threaded.
 */
final class FleetSimulation implements AdmissionListener {
    /** The fleet's knobs. */
    record Fleet(int workers, long maxNumBatchedTokens, double prefillTokensPerSecond, long decodeNsPerToken) {
    }

    private enum Kind { ARRIVE, FIRST_TOKEN, DONE, LEAVE, TICK }

    private record Event(long atNs, Kind kind, long lifecycleId, int arrival) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            return Long.compare(atNs, other.atNs);
        }
    }

    private static final long TICK_NS = 5_000_000L;

    private final ModelRouter router;
    private final VirtualClock clock;
    private final Fleet fleet;
    private final List<DemoWorkload.Arrival> arrivals;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final long[] prefillFreeAt;
    private final Long2ObjectHashMap<DemoWorkload.Arrival> byLifecycle = new Long2ObjectHashMap<>();
    private final Long2LongHashMap ingressAt = new Long2LongHashMap(-1);
    private final Long2LongHashMap firstTokenAt = new Long2LongHashMap(-1);
    private final Long2ObjectHashMap<DemoReport.ClassLine> classOf = new Long2ObjectHashMap<>();
    private final PolicyProfile profile;
    final DemoReport report = new DemoReport();

    FleetSimulation(ModelRouter router, VirtualClock clock, Fleet fleet, List<DemoWorkload.Arrival> arrivals,
                    PolicyProfile profile) {
        this.profile = profile;
        this.router = router;
        this.clock = clock;
        this.fleet = fleet;
        this.arrivals = arrivals;
        this.prefillFreeAt = new long[fleet.workers()];
    }

    /** Runs until every request has ended; returns the report. */
    DemoReport run(long durationNs) {
        for (int w = 0; w < fleet.workers(); w++) {
            router.workerJoined(WorkerWithDpRank.of(w), fleet.maxNumBatchedTokens(), OptionalLong.of(4096));
        }
        for (int i = 0; i < arrivals.size(); i++) {
            events.add(new Event(arrivals.get(i).atNs(), Kind.ARRIVE, 0, i));
        }
        events.add(new Event(0, Kind.TICK, 0, -1));
        step();
        while (!events.isEmpty()) {
            Event event = events.poll();
            clock.set(event.atNs());
            handle(event);
            step();
            boolean busy = router.stats().live() > 0;
            if (event.kind() == Kind.TICK && (busy || event.atNs() < durationNs)) {
                events.add(new Event(event.atNs() + TICK_NS, Kind.TICK, 0, -1));
            }
        }
        report.simulatedNs = clock.nanoTime();
        report.stats = router.stats();
        return report;
    }

    private void handle(Event event) {
        switch (event.kind()) {
            case ARRIVE -> {
                DemoWorkload.Arrival arrival = arrivals.get(event.arrival());
                report.arrived++;
                long id = router.submit(arrival.request(), clock.nanoTime(), this);
                byLifecycle.put(id, arrival);
                ingressAt.put(id, clock.nanoTime());
                // The demo fleet publishes no KV events, so the router sees every input token as uncached.
                int classIndex = profile.resolveLenient(arrival.request().policyClass(),
                    arrival.request().inputTokens());
                DemoReport.ClassLine line = report.forClass(profile.classes().get(classIndex).name());
                line.arrived++;
                classOf.put(id, line);
                if (arrival.leavesAfterNs() > 0) {
                    events.add(new Event(clock.nanoTime() + arrival.leavesAfterNs(), Kind.LEAVE, id, -1));
                }
            }
            case FIRST_TOKEN -> {
                if (byLifecycle.containsKey(event.lifecycleId())) {
                    firstTokenAt.put(event.lifecycleId(), clock.nanoTime());
                    long ttftMs = toMs(clock.nanoTime() - ingressAt.get(event.lifecycleId()));
                    report.ttftMs.recordValue(ttftMs);
                    DemoReport.ClassLine line = classOf.get(event.lifecycleId());
                    if (line != null) {
                        line.ttftMs.recordValue(ttftMs);
                    }
                    router.responding(event.lifecycleId());
                }
            }
            case DONE -> {
                DemoWorkload.Arrival arrival = byLifecycle.remove(event.lifecycleId());
                if (arrival != null) {
                    report.completed++;
                    router.completed(event.lifecycleId(), arrival.request().inputTokens() + arrival.outputTokens());
                }
            }
            case LEAVE -> {
                if (byLifecycle.remove(event.lifecycleId()) != null) {
                    report.clientsLeft++;
                    router.aborted(event.lifecycleId(), new java.util.concurrent.CancellationException("client left"));
                }
            }
            case TICK -> {
            }
        }
    }

    @Override
    public void onDispatched(long lifecycleId, WorkerWithDpRank worker) {
        DemoWorkload.Arrival arrival = byLifecycle.get(lifecycleId);
        long now = clock.nanoTime();
        long waitMs = toMs(now - ingressAt.get(lifecycleId));
        report.queueWaitMs.recordValue(waitMs);
        DemoReport.ClassLine line = classOf.get(lifecycleId);
        if (line != null) {
            line.dispatched++;
            line.queueWaitMs.recordValue(waitMs);
        }
        if (arrival == null) {
            return;
        }
        int w = (int) worker.workerId();
        long prefillNs = (long) (arrival.request().inputTokens() / fleet.prefillTokensPerSecond() * 1e9);
        long firstToken = Math.max(now, prefillFreeAt[w]) + prefillNs;
        prefillFreeAt[w] = firstToken;
        events.add(new Event(firstToken, Kind.FIRST_TOKEN, lifecycleId, -1));
        events.add(new Event(firstToken + arrival.outputTokens() * fleet.decodeNsPerToken(), Kind.DONE, lifecycleId,
            -1));
    }

    @Override
    public void onRejected(long lifecycleId, AdmissionError error) {
        byLifecycle.remove(lifecycleId);
        report.rejection(error);
        DemoReport.ClassLine line = classOf.get(lifecycleId);
        if (line != null) {
            line.rejected++;
        }
    }

    private void step() {
        while (router.doWork() > 0) {
            // Drain everything due at this instant.
        }
    }

    private static long toMs(long ns) {
        return Math.max(0, ns / 1_000_000L);
    }

    static Histogram histogram() {
        return new Histogram(3_600_000L, 3);
    }
}
