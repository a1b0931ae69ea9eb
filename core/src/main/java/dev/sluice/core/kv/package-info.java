/**
 * The KV-cache vocabulary engines and the router share. Engines publish {@link dev.sluice.core.kv.KvEvent}s about the
 * blocks they store and evict (to a {@link dev.sluice.core.kv.KvEventSink}); the router hashes each request's tokens
 * the same way ({@link dev.sluice.core.kv.BlockHasher}), so a prompt's blocks can be matched against what each worker
 * caches. The matching itself is the router's (package {@code select}).
 */
package dev.sluice.core.kv;
