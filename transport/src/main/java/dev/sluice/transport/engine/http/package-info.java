/**
 * Remote engines: {@link dev.sluice.transport.engine.http.HttpEngine} forwards requests to an OpenAI-compatible
 * server's {@code /v1/completions} over HTTP and streams the answer back.
 *
 * <pre>
 *   submit ─▶ reader virtual thread: POST {prompt text, stream: true} ─▶ HttpClient ─▶ remote server
 *                 │ bytes ─▶ SseParser ─▶ CompletionStreamAdapter ─▶ onText × n ─▶ onFinished (usage) | onError
 *   cancel / first-token timer / close ─▶ abort: cancel the response future, close the body ─▶ reader wakes
 * </pre>
 */
package dev.sluice.transport.engine.http;
