/**
 * What a host exchanges with a model router: the {@link dev.sluice.core.host.AdmissionRequest} it submits, the
 * {@link dev.sluice.core.host.AdmissionListener} that hears the one outcome (dispatched to a worker, or rejected),
 * and the {@link dev.sluice.core.host.SchedulerObserver} that sees every input and decision on the scheduler thread
 * (the journal and the metrics are observers; {@link dev.sluice.core.host.CompositeObserver} makes several one).
 * Observers see requests through a read-only {@link dev.sluice.core.host.RequestView}.
 */
package dev.sluice.core.host;
