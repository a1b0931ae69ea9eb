package dev.sluice.transport.engine.telemetry;

/** Where a scraper reads an engine's exposition from: its {@code /metrics} over HTTP, or a test's text. */
public interface MetricsSource extends AutoCloseable {
    /**
     * One exposition, fetched now; blocks the caller up to the source's timeout.
     *
     * @throws ScrapeException the engine could not be reached, answered other than 2xx, or sent too much.
     * @throws InterruptedException the caller was interrupted (the scraper is closing).
     */
    String fetch() throws ScrapeException, InterruptedException;

    /** Where it reads from, for logs. */
    String address();

    /** Releases connections; idempotent. */
    @Override
    void close();
}
