/**
 * Engines' KV-cache events over ZMQ, in the wire format vLLM and SGLang publish (their
 * {@code --kv-events-config}), both ends: {@link dev.sluice.transport.engine.kv.KvEventSubscriber} feeds one
 * engine's events to the router, {@link dev.sluice.transport.engine.kv.ZmqKvEventPublisher} publishes them (the mock
 * engine, tests).
 *
 * <pre>
 *   engine PUB ──[topic, seq, msgpack]──▶ SUB (subscriber thread, one per engine)
 *                                          │ seq gap? ─▶ ReplayClient (DEALER) ─▶ engine ROUTER: missed batches
 *                                          │           unrecoverable / seq back ─▶ forget the rank's cache
 *                                          ▼
 *                         KvBatchDecoder ─▶ KvWireBatch ─▶ RankBlocks: engine hash ─▶ router sequence hash,
 *                                                          re-hashed from token_ids (BlockHasher)
 *                                                          ─▶ KvEventSink (ModelRouter.kvEvent: scheduler, journal)
 * </pre>
 */
package dev.sluice.transport.engine.kv;
