/**
 * The admission journal: every scheduler input and decision, recorded to Chronicle Queue in an explicit,
 * versioned binary layout ({@code FORMAT.md} next to these sources), then read back for audit and replay.
 *
 * <pre>
 *   scheduler thread ─observer callbacks─▶ JournalWriter ─one appender─▶ DIR/yyyyMMdd-HHF.cq4 (hourly, retained N)
 *   JournalReader (read-only, torn tail ignored) ─▶ JournalRecord values ─▶ sluice journal show|stats|verify, replay
 *   JournalCapture: the same encoding into memory (replay's side of a comparison, layout tests)
 *   JournalSpace (free-space reserve) and JournalWatch (directory deleted) turn silent losses into writer failures
 * </pre>
 *
 * <p>Records (format version {@value dev.sluice.core.journal.JournalHeader#FORMAT_VERSION}); each starts with its
 * type byte and the scheduler time in nanoseconds:
 * <ol>
 *   <li>{@code HEADER}: format version, wall clock, model, policy source, policy text, its SHA-256, classifier,
 *       overload status, router limits, fallback queue settings. One per start.</li>
 *   <li>{@code ARRIVED}: lifecycle id, ingress time, input tokens, strict priority, priority jump, pinned worker,
 *       request id, class header, tenant, session id, parent session, finality, input trigger.</li>
 *   <li>{@code REFUSED}: an arrival that got no lifecycle: the arrival fields and the error.</li>
 *   <li>{@code CLASSIFIED}: lifecycle id, decision kind, overrides (class, due at, cost, soft target).</li>
 *   <li>{@code ENQUEUED}: lifecycle id, class index, class name, family, bucket, cached tokens, cost, strict
 *       priority, overrides.</li>
 *   <li>{@code REJECTED}: lifecycle id, stage, error (class, HTTP status, overload status in force, Retry-After,
 *       reason, public message, diagnostic).</li>
 *   <li>{@code DISPATCHED}: lifecycle id, worker. {@code RESPONDING}: lifecycle id.</li>
 *   <li>{@code COMPLETED}: lifecycle id, context tokens (-1: none reported).</li>
 *   <li>{@code ABORTED}: lifecycle id, stage, cause type and text. {@code RETRIED}: lifecycle id.</li>
 *   <li>{@code WORKER_JOINED}: worker, max_num_batched_tokens, total KV blocks (-1: none).
 *       {@code WORKER_LEFT}: worker.</li>
 *   <li>{@code KV_EVENT}: an engine's KV-cache event. {@code CLOSED}: the writer closed cleanly (a run without one
 *       was cut short).</li>
 * </ol>
 *
 * <p>Threading: the writer is owned by the duty cycle (the scheduler thread; with {@code scheduler_idle: combine}
 * whichever thread holds the cycle, one at a time); readers and captures by whoever made them.
 */
package dev.sluice.core.journal;
