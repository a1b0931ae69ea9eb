/**
 * Remote engines: {@link dev.sluice.transport.engine.http.HttpEngine} forwards requests to an OpenAI-compatible
 * server's {@code /v1/completions} over HTTP and streams the answer back.
 *
 * <pre>
 *   submit ─▶ reader virtual thread: POST {prompt text, stream: true} ─▶ Http1Client (pooled) ─▶ remote server
 *                 │ bytes ─▶ SseParser ─▶ CompletionStreamAdapter ─▶ onText × n ─▶ onFinished (usage) | onError
 *   cancel / timers / close ─▶ abort: interrupt the reader ─▶ its socket closes ─▶ it reports why
 * </pre>
 */
package dev.sluice.transport.engine.http;
