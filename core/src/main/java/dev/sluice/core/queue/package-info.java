/**
 * The policy-class queues of one model router, owned by the scheduler thread.
 *
 * <pre>
 *   admitted request ─▶ class (lenient header path or strict override) ─▶ limits (pre-add) ─▶ lane heap
 *                                                                           shared lane | one lane per pinned worker
 *   dispatch: DRR across classes (quantum in cost tokens) ─▶ best dispatchable lane head ─▶ worker selection
 *             inside a class: strict priority ▸ earliest due_at ▸ fcfs|wspt score ▸ arrival
 *             tenant_fairness: vtc: the shared lane is one lane per tenant; the head of the least charged tenant
 *             goes (TenantLanes: counters charged at dispatch and at the end of service, a min-heap of tenants)
 *
 *   PolicyQueues ─┬─ ClassQueue[]  (ring order) ─┬─ Lane shared            intrusive heap of QueueEntry
 *                 │                              ├─ Lane per pinned worker  (Object2ObjectHashMap by worker)
 *                 │                              └─ LaneIndex               heads of the unparked exact lanes
 *                 ├─ ReadyClasses   bit sets: which classes a DRR pass visits
 *                 ├─ LaneParking    worker ─▶ WorkerLanes (its parked exact lanes); onWorkerChanged/onLoadChanged
 *                 ├─ DeficitRoundRobin  carried class, ring pass, bounded fast-forward
 *                 └─ DeadlineIndex  min-heap on due_at: sweeps cost O(expired · log n)
 *
 *   the three heaps are one IntrusiveHeap of QueueEntry in three roles: a Lane is one (its entries), LaneIndex holds
 *   one of lane heads (head.heap leads back to the lane), DeadlineIndex one by due_at
 * </pre>
 */
package dev.sluice.core.queue;
