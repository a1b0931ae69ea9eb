/**
 * The single-threaded scheduler of one model router: the only reader and writer of its live requests, the
 * classifier instance, the policy queues, worker load, bookings and timers. Everything else sends it messages.
 *
 * <pre>
 *   any thread ─▶ IngressProxy ─claim, fill, publish─▶ [Disruptor ring of IngressEvent] ─┐
 *   continuations, wake-ups ─▶ RouterSignals (MPSC inbox) ───────────────────────────────┤
 *                                                                                        ▼
 *   SchedulerAgent.doWork: clock once ─▶ ring ─▶ inbox ─▶ Timers ─▶ queue deadlines ─▶ periodic tasks
 *       every input ─▶ AdmissionFlow ─┬─▶ ClassifyStage ─▶ ClassifierHost ─▶ classifier (plugin)
 *                                     │        └─ Verdict: ENQUEUE | REJECT | FAIL | WAIT (Deferrals, park)
 *                                     ├─▶ PolicyQueues (enqueue, DRR poll, expiry)
 *                                     ├─▶ WorkerTable (cache estimate, selection, booking)
 *                                     └─▶ LifecycleTable.moveTo (the one checked phase change) ─▶ listener
 *   every decision ─▶ SchedulerObserver (journal, metrics); every count ─▶ RouterCounters
 * </pre>
 *
 * A message whose handling throws fails only the request it is about and is counted; the ring moves on.
 */
package dev.sluice.core.scheduler;
