package dev.sluice.core.spi;

/**
 * Where a {@link RouterPluginCatalog} registers its plugins, by type name; the router-policy YAML then selects one by
 * {@code type}. A name is non-empty, not the reserved {@link #DEFAULT_TYPE}, and registered once per kind; breaking
 * a rule throws a {@link RegistryException}, which stops startup. Called on the thread that loads the catalogs.
 */
public interface RouterPluginRegistry {
    /** The reserved type name of sluice's built-in behaviour: pass-through classification, the default selector. */
    String DEFAULT_TYPE = "default";

    /** Registers a classifier type, which the {@code request_classifier} section names by {@code type}. */
    void registerRequestClassifier(String type, RequestClassifierProvider provider) throws RegistryException;

    /** Registers a worker-selection type, which {@code worker_selection} instances then name by {@code type}. */
    void registerWorkerSelector(String type, WorkerSelectorProvider provider) throws RegistryException;
}
