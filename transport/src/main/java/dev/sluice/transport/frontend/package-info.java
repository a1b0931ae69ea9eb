/**
 * The OpenAI-compatible HTTP frontend: Helidon SE on virtual threads in front of one admission router per model
 * and its engines, which an {@link dev.sluice.transport.frontend.EngineSetup} chooses: the embedded simulated fleet,
 * or remote OpenAI-compatible servers reached through {@link dev.sluice.transport.engine.http.HttpEngine} (no KV
 * events from those, so the router places them by load alone).
 *
 * <pre>
 *   POST /v1/chat/completions ─▶ parse, tokenize, headers ─▶ ModelRouter.submit ─▶ wait (virtual thread parks)
 *       rejected ─▶ OpenAI error JSON, status from the error class, Retry-After
 *       dispatched(worker) ─▶ Engine.submit ─▶ JSON or SSE ─▶ responding / completed / aborted to the router
 *                                                          └─▶ success / engine failure to WorkerHealth
 *   WorkerHealth: failures in a row ─▶ workerLeft; probe (GET /v1/models) with backoff ─▶ workerJoined
 *   EngineScrapers: per remote engine, GET /metrics every interval ─▶ WorkerMembership ─▶ workerLoad, and
 *       workerJoined with the engine's KV capacity (only while the worker is in the router)
 *   GET /v1/models, /health, /live, /metrics (Prometheus)
 * </pre>
 */
package dev.sluice.transport.frontend;
