/**
 * Metrics: what a router's scheduler, the frontend's health tracker and the engines' metrics scrapers count, and how
 * {@code /metrics} shows it. {@link dev.sluice.transport.metrics.RouterMetrics} observes the scheduler (single
 * writer, no locks, no allocation once warm), {@link dev.sluice.transport.metrics.WorkerHealthMetrics} the engines'
 * health, {@link dev.sluice.transport.metrics.EngineTelemetryMetrics} the scrapes of their {@code /metrics}, and
 * {@link dev.sluice.transport.metrics.PrometheusText} renders them all in the Prometheus text format on a scrape.
 *
 * <pre>
 *   scheduler thread ─▶ RouterMetrics (SchedulerObserver) ─┐
 *   WorkerHealth     ─▶ WorkerHealthMetrics ───────────────┤
 *   scrapers         ─▶ EngineTelemetryMetrics ────────────┴─▶ PrometheusText ─▶ GET /metrics (any thread)
 * </pre>
 *
 * Depends on core only; the frontend and the demo use it.
 */
package dev.sluice.transport.metrics;
