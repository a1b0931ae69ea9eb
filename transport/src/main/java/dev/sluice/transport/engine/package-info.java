/**
 * What the frontend needs from any inference engine, in-process or remote: submit a tokenized request and receive
 * one callback per generated token and exactly one terminal callback; cancel; read the engine's runtime
 * configuration and a load snapshot per data-parallel rank; probe whether it answers at all. KV events go to the
 * {@link dev.sluice.core.kv.KvEventSink} an engine was built with (engines that cannot report them send none).
 * In-process engines report token ids ({@code onToken}), which the frontend renders; remote engines report the
 * text they generated ({@code onText}) and are sent the prompt text ({@link
 * dev.sluice.transport.engine.EngineRequest#promptText}), since they tokenize with their own tokenizer.
 *
 * <pre>
 *   frontend ──submit(EngineRequest, EngineListener)──▶ Engine ──▶ EngineStream (cancel)
 *        ▲                                                  │
 *        └── (onToken | onText) × n, then onFinished | onError ◀─┘  (on the engine's thread)
 * </pre>
 */
package dev.sluice.transport.engine;
