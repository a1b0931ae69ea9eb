/**
 * {@code sluice mock-engine}: an OpenAI-compatible HTTP server over one simulated worker in real time, so the
 * frontend can be tested against a "remote" engine over real HTTP.
 *
 * <pre>
 *   HTTP (Helidon, virtual thread per request) ─▶ CompletionsHandler: parse, tokenize, submit
 *        ▲                                              │ EngineQueue (listener → blocking queue)
 *        └── JSON body, or one SSE event per token ◀────┘ ◀── runner thread: onToken / onFinished / onError
 * </pre>
 */
package dev.sluice.transport.engine.mock;
