/**
 * The OpenAI-compatible HTTP frontend: Helidon SE on virtual threads in front of one or several models, each with
 * its own admission router and engines ({@link dev.sluice.transport.frontend.ModelServing}), which an
 * {@link dev.sluice.transport.frontend.EngineSetup} chooses: the embedded simulated fleet, or remote OpenAI-compatible
 * servers reached through {@link dev.sluice.transport.engine.http.HttpEngine}, with their KV events and metrics read
 * beside them. Remote engines join and leave while it runs ({@link dev.sluice.transport.frontend.EnginesFileWatcher}).
 *
 * <pre>
 *   POST /v1/chat/completions ─▶ parse, find the model, tokenize, headers ─▶ ModelRouter.submit ─▶ wait (parks)
 *       rejected ─▶ OpenAI error JSON, status from the error class, Retry-After
 *       dispatched(worker) ─▶ Engine.submit ─▶ JSON or SSE ─▶ responding / completed / aborted to the router
 *                                                          └─▶ success / engine failure to WorkerHealth
 *   WorkerHealth: failures in a row ─▶ workerLeft; probe (GET /v1/models) with backoff ─▶ workerJoined
 *   EngineMetricsScraper: per remote engine, GET /metrics every interval ─▶ WorkerMembership ─▶ workerLoad, and
 *       workerJoined with the engine's KV capacity (only while the worker is in the router)
 *   EnginesFileWatcher: the engines file changed ─▶ ModelServing.join (new worker id, /v1/models checked) or
 *       leave (workerLeft now; the engine stopped once its running requests end)
 *   GET /v1/models, /health, /live, /metrics (Prometheus)
 * </pre>
 */
package dev.sluice.transport.frontend;
