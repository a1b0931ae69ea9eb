/**
 * Remote engines: {@link dev.sluice.transport.engine.http.HttpEngine} forwards requests to an OpenAI-compatible
 * server's {@code /v1/completions} over HTTP and streams the answer back, through its own lean HTTP/1.1 client
 * ({@code UpstreamClient}: blocking sockets on the request's reader virtual thread, keep-alive connections pooled
 * per engine, no allocation per read).
 *
 * <pre>
 *   submit ─▶ reader virtual thread: POST {prompt text, stream: true} ─▶ UpstreamClient ─▶ remote server
 *                 │   ConnectionPool (LIFO, idle keep-alive) ─▶ UpstreamConnection: request in one write,
 *                 │   ResponseHead parsed and body decoded (ChunkedDecoder) in its read buffer
 *                 │ bytes ─▶ SseParser ─▶ CompletionStreamAdapter ─▶ onText × n ─▶ onFinished (usage) | onError
 *   cancel / timers / close ─▶ abort: interrupt the reader ─▶ its socket closes ─▶ it reports why
 * </pre>
 */
package dev.sluice.transport.engine.http;
