/**
 * The KV-cache vocabulary shared by engines and the router: token ids, block hashes and KV events. Engines
 * publish {@link dev.sluice.core.kv.KvEvent}s about the blocks they store and evict; the router hashes each
 * request's tokens the same way ({@link dev.sluice.core.kv.BlockHasher}) to find which worker already holds the
 * longest prefix.
 */
package dev.sluice.core.kv;
