/**
 * The values a plugin receives and returns. A request classifier (the SPI's {@code RequestClassifier})
 * receives a {@link dev.sluice.core.api.ClassifyRequest}, lifecycle {@link dev.sluice.core.api.ClassifyEvent}s and,
 * from its factory, a {@link dev.sluice.core.api.RequestClassifierContext}; it answers with a
 * {@link dev.sluice.core.api.Classification} (admit, reject with an {@link dev.sluice.core.api.AdmissionError}, defer
 * to a {@link dev.sluice.core.api.Continuation}, park until a {@link dev.sluice.core.api.Wakeup}). A worker selector
 * receives {@link dev.sluice.core.api.SelectionInputs} and, from its factory, a
 * {@link dev.sluice.core.api.WorkerSelectorContext}. Providers receive their YAML {@code parameters}
 * ({@link dev.sluice.core.api.RequestClassifierParameters}, {@link dev.sluice.core.api.WorkerSelectorParameters}).
 *
 * <p>Threading: {@code classify} and {@code onEvent} run on the model router's scheduler thread, one call at a time,
 * so a classifier needs no locks for its own state. Waiting happens only inside a deferral: a
 * {@link dev.sluice.core.api.Continuation} on a virtual thread, or a scheduler-side park woken through a
 * {@link dev.sluice.core.api.Wakeup}.
 */
package dev.sluice.core.api;
