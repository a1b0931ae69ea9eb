/**
 * Remote engines: {@link dev.sluice.transport.engine.http.HttpEngine} forwards requests to an OpenAI-compatible
 * server's {@code /v1/completions} over HTTP/1.1 on the process's shared Netty event loops and streams the answer
 * back: each request runs on one loop (the caller's own when it is one of them), on a keep-alive connection pooled
 * per loop. {@code GET /v1/models} (the model check, the health probe) uses a small blocking client on its caller's
 * thread.
 *
 * <pre>
 *   submit ─▶ loop task: RemoteExchange ─▶ EngineChannels.borrow (the loop's idle connection, or a new one)
 *                 │   EngineConnection: POST {prompt, stream: true} ─▶ HttpClientCodec ─▶ remote server
 *                 │ body bytes ─▶ SseParser ─▶ CompletionStreamAdapter ─▶ onText × n ─▶ onFinished (usage) | onError
 *                 │ answer read to its end, kept alive ─▶ back to the loop's pool
 *   cancel / close ─▶ abort ─▶ loop task: the connection closed, the reason reported
 *   first-token / idle timers ─▶ loop tasks
 *   probe, models ─▶ UpstreamClient (blocking, Connection: close) ─▶ UpstreamConnection ─▶ ResponseHead, ChunkedDecoder
 * </pre>
 */
package dev.sluice.transport.engine.http;
