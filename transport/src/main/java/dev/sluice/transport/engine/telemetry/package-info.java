/**
 * Engine telemetry: each remote engine's Prometheus {@code /metrics}, read on an interval by its own
 * {@link dev.sluice.transport.engine.telemetry.EngineMetricsScraper}, becomes the router's view of the engine's own
 * load ({@code ModelRouter.workerLoad}) and, when the engine publishes it, of its KV capacity. vLLM's and SGLang's
 * metric names are read ({@link dev.sluice.transport.engine.telemetry.EngineMetricsReader}).
 *
 * <pre>
 *   scraper's virtual thread, every interval:
 *     MetricsSource.fetch (HttpMetricsSource: GET /metrics) ─▶ PrometheusParser ─▶ Exposition (samples, errors)
 *        ─▶ EngineMetricsReader (the served model's series, per engine rank) ─▶ EngineSample
 *        ─▶ per router rank: TelemetrySink.onLoad(WorkerLoad), onCapacity(rank, blocks) when it changed
 *     a failure ─▶ counted (EngineTelemetryMetrics), logged rate-limited; after 3 in a row: onLoad(no outside load)
 * </pre>
 */
package dev.sluice.transport.engine.telemetry;
