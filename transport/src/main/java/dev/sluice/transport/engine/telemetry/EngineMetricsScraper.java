package dev.sluice.transport.engine.telemetry;

import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.WorkerLoad;
import dev.sluice.transport.metrics.EngineTelemetryMetrics;
import dev.sluice.transport.metrics.ScrapeFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one worker's engine's {@code /metrics} on an interval and tells the router what it found: each rank's
 * load as a {@link WorkerLoad} ({@code kv usage × KV size} blocks in use, requests running and waiting), and the
 * engine's KV size as the rank's capacity when it publishes one (unless the operator's figure wins). KV figures are
 * converted to the router's blocks; an engine whose block size differs from the router's is logged once.
 *
 * <p>A scrape that fails (no connection, not 2xx, not Prometheus text, no load of the model) is counted and logged
 * (the first of a run, then at most once a minute), never fatal. The last sample's effect holds through
 * {@value #STALE_AFTER_FAILURES} failures in a row; then the rank is reported without outside load, so that the
 * router goes by its own bookings alone and a stale report cannot keep a worker busy forever. Whether the engine
 * serves requests is for health tracking to decide. The next usable scrape restores the engine's view.
 *
 * <p>Threads: {@link #start} runs the scrapes on one virtual thread of the scraper's own, one at a time with
 * {@code interval} between the end of one and the start of the next; {@link #scrapeOnce} runs one on the caller's
 * thread (tests drive it by hand with a manual clock). {@link #close} interrupts a scrape in progress and waits for
 * it to leave, so the sink hears nothing afterwards; idempotent. Thread-safe.
 */
public final class EngineMetricsScraper implements AutoCloseable {
    /** Failed scrapes in a row after which the engine's last report stops counting. */
    public static final int STALE_AFTER_FAILURES = 3;
    private static final Logger LOG = LoggerFactory.getLogger(EngineMetricsScraper.class);
    private static final long LOG_EVERY_NS = TimeUnit.MINUTES.toNanos(1);

    private final ScrapeTarget target;
    private final MetricsSource source;
    private final TelemetrySink sink;
    private final EngineTelemetryMetrics metrics;
    private final NanoClock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final long[] capacitySent;
    /** What was logged once (a block size, a rank); guarded by {@link #lock}. */
    private final Set<String> once = new HashSet<>();
    private volatile boolean closed;
    private ScheduledExecutorService executor;
    /** Guarded by {@link #lock}. */
    private int failuresInARow;
    private boolean reported;
    private long lastWarnNs;
    private int warningsHeld;

    /**
     * A scraper that has not scraped yet; {@link #start} or {@link #scrapeOnce} it.
     *
     * @param source closed with this.
     */
    public EngineMetricsScraper(ScrapeTarget target, MetricsSource source, TelemetrySink sink,
                                EngineTelemetryMetrics metrics, NanoClock clock) {
        this.target = Objects.requireNonNull(target, "target");
        this.source = Objects.requireNonNull(source, "source");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.capacitySent = new long[target.dataParallelRanks()];
        Arrays.fill(capacitySent, -1);
        metrics.tracked(target.workerId());
    }

    /**
     * Scrapes now, then every {@code interval} after the previous scrape ends, on the scraper's own virtual thread.
     *
     * @throws IllegalStateException if already started or closed.
     */
    public synchronized void start(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the scrape interval must be positive, was " + interval);
        }
        if (executor != null || closed) {
            throw new IllegalStateException("the scraper of worker " + target.workerId() + " is started or closed");
        }
        executor = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual()
            .name("sluice-engine-metrics-" + target.workerId()).factory());
        executor.scheduleWithFixedDelay(this::scrapeContained, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** A scheduled scrape: a failure of the sink must not end the schedule (a throwing task is never run again). */
    private void scrapeContained() {
        try {
            scrapeOnce();
        } catch (RuntimeException e) {
            LOG.error("a metrics scrape of worker {} ({}) failed", target.workerId(), source.address(), e);
        }
    }

    /** One scrape on the caller's thread; the sink hears its findings before this returns. Nothing once closed. */
    public void scrapeOnce() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            List<String> notes = new ArrayList<>();
            EngineSample sample;
            Exposition exposition;
            try {
                exposition = PrometheusParser.parse(source.fetch());
                if (exposition.samples().isEmpty() && !exposition.errors().isEmpty()) {
                    throw new ScrapeException(ScrapeFailure.UNPARSABLE, "not Prometheus text; "
                        + exposition.errors().getFirst());
                }
                sample = EngineMetricsReader.read(exposition, target.model(), notes);
            } catch (ScrapeException e) {
                failed(e);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!closed) {
                sampled(sample, exposition.errors(), notes);
            }
        } finally {
            lock.unlock();
        }
    }

    private void sampled(EngineSample sample, List<String> malformed, List<String> notes) {
        long now = clock.nanoTime();
        metrics.sampled(target.workerId(), now);
        if (!malformed.isEmpty()) {
            metrics.malformed(target.workerId(), malformed.size());
            notes.addAll(malformed);
        }
        if (!notes.isEmpty() && once.add("notes")) {
            LOG.warn("metrics of worker {} ({}): {} line(s) or series unusable, the rest read (logged once): {}",
                target.workerId(), source.address(), notes.size(), notes);
        }
        if (failuresInARow > 0) {
            LOG.info("metrics of worker {} ({}) read again after {} failed scrape(s)", target.workerId(),
                source.address(), failuresInARow);
            failuresInARow = 0;
            warningsHeld = 0;
        }
        for (Reading reading : readings(sample)) {
            sink.onLoad(reading.load);
            capacity(reading.load.worker(), reading.capacityBlocks, sample);
        }
        reported = true;
    }

    /** The load (and KV size in router blocks, -1 if unknown) of each of the worker's ranks the sample covers. */
    private List<Reading> readings(EngineSample sample) {
        List<EngineSample.Rank> ranks = sample.ranks();
        blockSizes(ranks);
        List<Reading> readings = new ArrayList<>(ranks.size());
        if (target.dataParallelRanks() == 1) {
            if (ranks.size() > 1 && once.add("fold")) {
                LOG.info("worker {} ({}): its engine reports {} data-parallel ranks, the router has it as one: their "
                    + "loads and KV sizes are summed", target.workerId(), source.address(), ranks.size());
            }
            long share = Math.max(1, target.configuredKvBlocks() / ranks.size());
            long used = 0;
            long capacity = 0;
            int running = 0;
            int waiting = 0;
            for (EngineSample.Rank rank : ranks) {
                used += usedBlocks(rank, share);
                capacity = capacity < 0 || !rank.knowsCapacity() ? -1 : capacity + routerBlocks(rank);
                running = saturatedAdd(running, rank.running());
                waiting = saturatedAdd(waiting, rank.waiting());
            }
            readings.add(new Reading(new WorkerLoad(rank(0), used, running, waiting), capacity));
            return readings;
        }
        for (EngineSample.Rank rank : ranks) {
            if (rank.rank() >= target.dataParallelRanks()) {
                if (once.add("rank " + rank.rank())) {
                    LOG.warn("worker {} ({}): its engine reports rank {}, the router has ranks 0..{}: ignored",
                        target.workerId(), source.address(), rank.rank(), target.dataParallelRanks() - 1);
                }
                continue;
            }
            readings.add(new Reading(new WorkerLoad(rank(rank.rank()), usedBlocks(rank, target.configuredKvBlocks()),
                rank.running(), rank.waiting()), rank.knowsCapacity() ? routerBlocks(rank) : -1));
        }
        return readings;
    }

    private record Reading(WorkerLoad load, long capacityBlocks) {
    }

    /** Blocks in use, in router blocks: the usage fraction of the engine's KV size (else of {@code fallback}). */
    private long usedBlocks(EngineSample.Rank rank, long fallback) {
        if (Double.isNaN(rank.kvUsage())) {
            return 0;
        }
        return Math.round(rank.kvUsage() * (rank.knowsCapacity() ? routerBlocks(rank) : fallback));
    }

    private long routerBlocks(EngineSample.Rank rank) {
        return rank.kvCapacityTokens() / target.routerBlockSize();
    }

    private void capacity(WorkerWithDpRank rank, long blocks, EngineSample sample) {
        if (blocks < 1 || blocks == capacitySent[rank.dpRank()]) {
            return;
        }
        capacitySent[rank.dpRank()] = blocks;
        if (!target.capacityFromEngine()) {
            if (blocks != target.configuredKvBlocks()) {
                LOG.info("worker {} ({}): its engine ({}) has KV room for {} blocks of {} tokens, the configured {} "
                    + "blocks win", target.workerId(), source.address(), sample.dialect(), blocks,
                    target.routerBlockSize(), target.configuredKvBlocks());
            }
            return;
        }
        LOG.info("worker {} rank {} ({}): its engine ({}) has KV room for {} blocks of {} tokens; the router books "
            + "against that", target.workerId(), rank.dpRank(), source.address(), sample.dialect(), blocks,
            target.routerBlockSize());
        sink.onCapacity(rank, blocks);
    }

    private void blockSizes(List<EngineSample.Rank> ranks) {
        for (EngineSample.Rank rank : ranks) {
            if (rank.blockSize() > 0 && rank.blockSize() != target.routerBlockSize() && once.add("block size")) {
                LOG.warn("worker {} ({}): its engine's KV blocks hold {} tokens, the router's --block-size is {}: "
                    + "its KV figures are converted to router blocks, and its cache matches prefixes in other units "
                    + "than the router hashes", target.workerId(), source.address(), rank.blockSize(),
                    target.routerBlockSize());
            }
        }
    }

    private void failed(ScrapeException e) {
        long now = clock.nanoTime();
        failuresInARow++;
        metrics.failed(target.workerId(), e.failure());
        if (failuresInARow == 1 || now - lastWarnNs >= LOG_EVERY_NS) {
            LOG.warn("metrics of worker {} ({}) unusable: {} ({} failed scrape(s) in a row{})", target.workerId(),
                source.address(), e.getMessage(), failuresInARow,
                warningsHeld > 0 ? ", " + warningsHeld + " not logged since the last warning" : "");
            lastWarnNs = now;
            warningsHeld = 0;
        } else {
            warningsHeld++;
        }
        if (failuresInARow == STALE_AFTER_FAILURES && reported) {
            reported = false;
            LOG.warn("worker {} ({}): {} failed scrapes in a row; the router no longer counts its engine's last "
                + "report and goes by its own bookings until a scrape succeeds", target.workerId(), source.address(),
                STALE_AFTER_FAILURES);
            for (int rank = 0; rank < target.dataParallelRanks(); rank++) {
                sink.onLoad(new WorkerLoad(rank(rank), 0, 0, 0));
            }
        }
    }

    private WorkerWithDpRank rank(int dpRank) {
        return new WorkerWithDpRank(target.workerId(), dpRank);
    }

    private static int saturatedAdd(int a, int b) {
        return (int) Math.min((long) a + b, Integer.MAX_VALUE);
    }

    /** Stops scraping; a scrape in progress is interrupted and finishes before this returns. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (executor != null) {
                executor.shutdownNow();
            }
        }
        lock.lock();
        lock.unlock();
        source.close();
    }
}
