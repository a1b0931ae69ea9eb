package dev.sluice.transport.metrics;

import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.concurrent.NanoClock;

/**
 * The scrapes of one model's engines' {@code /metrics}, by worker: how many were made, how many failed and why,
 * malformed lines met, and when the last usable sample was taken. Written by the scrapers' threads; read by scrapes
 * of sluice's own {@code /metrics}. Labels are bounded by the configured workers and {@link ScrapeFailure}.
 */
public final class EngineTelemetryMetrics {
    private final NanoClock clock;
    final ConcurrentSkipListMap<Long, Worker> workers = new ConcurrentSkipListMap<>();

    /** One worker's scrapes. */
    static final class Worker {
        final AtomicLong scrapes = new AtomicLong();
        final AtomicLongArray failures = new AtomicLongArray(ScrapeFailure.values().length);
        final AtomicLong malformedLines = new AtomicLong();
        /** {@link NanoClock} time of the last usable sample; {@link Long#MIN_VALUE} before the first. */
        volatile long lastSampleNs = Long.MIN_VALUE;
    }

    /** @param clock the time the last sample's age is measured against (the scrapers' clock). */
    public EngineTelemetryMetrics(NanoClock clock) {
        this.clock = clock;
    }

    /** A worker's engine is scraped: its counters are exported from now on, at 0 until it changes. */
    public void tracked(long workerId) {
        worker(workerId);
    }

    /** A scrape of the worker's engine gave a usable sample at {@code nowNs}. */
    public void sampled(long workerId, long nowNs) {
        Worker worker = worker(workerId);
        worker.scrapes.incrementAndGet();
        worker.lastSampleNs = nowNs;
    }

    /** A scrape of the worker's engine gave no sample, for {@code why}. */
    public void failed(long workerId, ScrapeFailure why) {
        Worker worker = worker(workerId);
        worker.scrapes.incrementAndGet();
        worker.failures.incrementAndGet(why.ordinal());
    }

    /** A scrape met {@code lines} lines it could not read (the others were read). */
    public void malformed(long workerId, int lines) {
        worker(workerId).malformedLines.addAndGet(lines);
    }

    /** Scrapes made of the worker's engine, usable or not. */
    public long scrapes(long workerId) {
        return worker(workerId).scrapes.get();
    }

    /** Failed scrapes of the worker's engine for {@code why}. */
    public long failures(long workerId, ScrapeFailure why) {
        return worker(workerId).failures.get(why.ordinal());
    }

    /** Lines of the worker's engine's expositions that could not be read. */
    public long malformedLines(long workerId) {
        return worker(workerId).malformedLines.get();
    }

    /** Seconds since the worker's last usable sample, or {@code NaN} before the first. */
    public double lastSampleAgeSeconds(long workerId) {
        long last = worker(workerId).lastSampleNs;
        return last == Long.MIN_VALUE ? Double.NaN : Math.max(0, clock.nanoTime() - last) / 1e9;
    }

    private Worker worker(long workerId) {
        return workers.computeIfAbsent(workerId, id -> new Worker());
    }
}
