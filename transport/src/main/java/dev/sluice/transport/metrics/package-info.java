/**
 * Metrics: what a router's scheduler and the frontend's health tracker count, and how {@code /metrics} shows it.
 * {@link dev.sluice.transport.metrics.RouterMetrics} observes the scheduler (single writer, no locks, no allocation
 * once warm), {@link dev.sluice.transport.metrics.WorkerHealthMetrics} the engines' health, and
 * {@link dev.sluice.transport.metrics.PrometheusText} renders both in the Prometheus text format on a scrape.
 *
 * <pre>
 *   scheduler thread ─▶ RouterMetrics (SchedulerObserver) ─┐
 *   WorkerHealth     ─▶ WorkerHealthMetrics ───────────────┴─▶ PrometheusText ─▶ GET /metrics (any thread)
 * </pre>
 *
 * Depends on core only; the frontend and the demo use it.
 */
package dev.sluice.transport.metrics;
