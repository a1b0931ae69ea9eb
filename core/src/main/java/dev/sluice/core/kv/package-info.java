/**
 * The KV-cache vocabulary shared by engines and the router, and the router's KV-aware bookkeeping. Engines publish
 * {@link dev.sluice.core.kv.KvEvent}s about the blocks they store and evict; the router hashes each request's
 * tokens the same way ({@link dev.sluice.core.kv.BlockHasher}) to find which worker already holds the longest
 * prefix ({@link dev.sluice.core.select.KvIndex}) and keeps its own estimate of what it booked on each worker
 * ({@link dev.sluice.core.select.ActiveSequences}). Both are owned by the scheduler thread.
 * <pre>
 *   KV events ──► KvIndex.apply                       worker leaves ──► KvIndex / ActiveSequences.removeWorker
 *   dispatch  ──► KvIndex.findMatches ─► overlap ─┐
 *                 ActiveSequences (load, new) ────┴─► selector ─► ActiveSequences.add
 *   first token ─► ActiveSequences.prefillCompleted    completed / aborted ─► ActiveSequences.free
 * </pre>
 */
package dev.sluice.core.kv;

import dev.sluice.core.select.ActiveSequences;
import dev.sluice.core.select.KvIndex;
