package dev.sluice.transport.frontend;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import dev.sluice.transport.engine.http.HttpEngineSettings;
import dev.sluice.transport.engine.telemetry.EngineMetricsScraper;
import dev.sluice.transport.engine.telemetry.EngineMetricsSettings;
import dev.sluice.transport.engine.telemetry.HttpMetricsSource;
import dev.sluice.transport.engine.telemetry.ScrapeTarget;
import dev.sluice.transport.engine.telemetry.TelemetrySink;
import dev.sluice.transport.metrics.EngineTelemetryMetrics;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The metrics scrapers of a frontend's remote engines, one per engine, each on its own virtual thread; none for
 * the simulated fleet (the router's own bookings are exact for engines in the process) or when scraping is off.
 * {@link #close} stops them all, in reverse order; idempotent. Thread-safe.
 */
final class EngineScrapers implements AutoCloseable {
    private final List<EngineMetricsScraper> scrapers;
    private boolean closed;

    private EngineScrapers(List<EngineMetricsScraper> scrapers) {
        this.scrapers = scrapers;
    }

    /** Starts a scraper per remote engine of {@code setup}, worker {@code i} for engine {@code i}. */
    static EngineScrapers start(EngineSetup setup, TelemetrySink sink, EngineTelemetryMetrics metrics) {
        List<EngineMetricsScraper> scrapers = new ArrayList<>();
        if (!(setup instanceof EngineSetup.Remote remote) || !remote.metrics().enabled()) {
            return new EngineScrapers(scrapers);
        }
        EngineMetricsSettings settings = remote.metrics();
        EngineScrapers started = new EngineScrapers(scrapers);
        try {
            for (int worker = 0; worker < remote.engines().size(); worker++) {
                HttpEngineSettings engine = remote.engines().get(worker);
                EngineRuntimeConfig config = engine.runtimeConfig();
                ScrapeTarget target = new ScrapeTarget(worker, config.dataParallelSize(), engine.model(),
                    config.blockSize(), config.totalKvBlocks(), settings.capacityFromEngine());
                EngineMetricsScraper scraper = new EngineMetricsScraper(target, new HttpMetricsSource(
                    HttpMetricsSource.besideApi(engine.completionsUri()), settings.timeout()), sink, metrics,
                    SystemNanoClock.INSTANCE);
                scrapers.add(scraper);
                scraper.start(settings.interval());
            }
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** How many engines are scraped. */
    int size() {
        return scrapers.size();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = scrapers.size() - 1; i >= 0; i--) {
            scrapers.get(i).close();
        }
    }
}
