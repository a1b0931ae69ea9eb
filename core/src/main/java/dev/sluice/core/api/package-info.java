/**
 * The request-classifier contract: what a plugin implements ({@link dev.sluice.core.spi.RequestClassifier}), what it
 * receives ({@link dev.sluice.core.api.ClassifyRequest}, {@link dev.sluice.core.api.ClassifyEvent},
 * {@link dev.sluice.core.api.RequestClassifierContext}) and how it answers ({@link dev.sluice.core.api.Classification},
 * {@link dev.sluice.core.api.AdmissionError}).
 *
 * <p>Threading: {@code classify} and {@code onEvent} run on the model router's scheduler thread, one call at a time,
 * so a classifier needs no locks for its own state. Waiting happens only inside a deferral: a
 * {@link dev.sluice.core.api.Continuation} on a virtual thread, or a scheduler-side park woken through a
 * {@link dev.sluice.core.api.Wakeup}.
 */
package dev.sluice.core.api;
