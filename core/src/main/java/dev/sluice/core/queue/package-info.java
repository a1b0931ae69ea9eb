/**
 * The policy-class queues of one model router, owned by the scheduler thread.
 *
 * <pre>
 *   admitted request ─▶ class (lenient header path or strict override) ─▶ limits (pre-add) ─▶ lane heap
 *                                                                           shared lane | one lane per pinned worker
 *   dispatch: DRR across classes (quantum in cost tokens) ─▶ best dispatchable lane head ─▶ worker selection
 *             inside a class: strict priority ▸ earliest due_at ▸ fcfs|wspt score ▸ arrival
 * </pre>
 */
package dev.sluice.core.queue;
