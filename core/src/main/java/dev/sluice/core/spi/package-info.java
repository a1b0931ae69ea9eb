/**
 * What a plugin implements, and how it is registered. A {@link dev.sluice.core.spi.RouterPluginCatalog} (found
 * through {@link java.util.ServiceLoader}) registers providers by type name into the
 * {@link dev.sluice.core.spi.RouterPluginRegistry}; the router-policy YAML selects one by {@code type}. A provider
 * validates the YAML {@code parameters} once at startup and returns a factory, called once per model router.
 * <ul>
 *   <li>Request classifiers: {@link dev.sluice.core.spi.RequestClassifierProvider} →
 *   {@link dev.sluice.core.spi.RequestClassifierFactory} → {@link dev.sluice.core.spi.RequestClassifier} (section
 *   {@code request_classifier}).</li>
 *   <li>Worker selectors: {@link dev.sluice.core.spi.WorkerSelectorProvider} →
 *   {@link dev.sluice.core.spi.WorkerSelectorFactory} → {@link dev.sluice.core.spi.WorkerSelector} (section
 *   {@code worker_selection}, per role). The built-in selector serves every role not given an instance.</li>
 * </ul>
 * The values these interfaces receive and return are in {@code dev.sluice.core.api}. Per dispatched request the
 * router runs:
 * <pre>
 *   eligible workers ──► SelectionInputs (overlap, booked load, new blocks, capacity)
 *                    ──► WorkerSelector.select(inputs) ──► candidate index ──► booking on that worker
 * </pre>
 */
package dev.sluice.core.spi;
