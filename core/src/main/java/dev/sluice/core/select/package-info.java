/**
 * Where a dispatched request goes: what each worker caches ({@link dev.sluice.core.select.KvIndex}, fed by the
 * engines' KV events), what the router itself booked on each ({@link dev.sluice.core.select.ActiveSequences}), the
 * candidates offered to the worker selector ({@link dev.sluice.core.select.SelectionCandidates}), and the built-in
 * selector ({@link dev.sluice.core.select.DefaultWorkerSelector}, type {@code default}). Everything here is owned by
 * one router's scheduler thread.
 * <pre>
 *   KV events ──► KvIndex.apply                       worker leaves ──► KvIndex / ActiveSequences.removeWorker
 *   dispatch  ──► KvIndex.findMatches ─► overlap ─┐
 *                 ActiveSequences.matchBooked ────┴─► SelectionCandidates ─► selector ─► ActiveSequences.add
 *   first token ─► ActiveSequences.prefillCompleted    completed / aborted ─► ActiveSequences.free
 * </pre>
 */
package dev.sluice.core.select;
