package dev.sluice.core.router;

import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.api.WorkerSelectorParameters;
import dev.sluice.core.config.PluginSection;
import dev.sluice.core.config.WorkerSelectionConfig;
import dev.sluice.core.select.DefaultSelectorProvider;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;
import dev.sluice.core.spi.RouterPluginCatalog;
import dev.sluice.core.spi.RouterPluginRegistry;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.core.spi.WorkerSelectorProvider;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The plugins linked into this process, by type name: filled at startup by {@link RouterPluginCatalog}s (through the
 * {@link RouterPluginRegistry} they register into), then resolved once against the policy file's sections before any
 * router is built. The reserved type {@code default} is sluice's own behaviour: pass-through classification and the
 * built-in worker selector. Not thread-safe: build it on one thread, then only read it.
 */
public final class RouterPlugins implements RouterPluginRegistry {
    private final ProviderTable<RequestClassifierProvider> classifiers =
        new ProviderTable<>("request-classifier", "classifier", "sluice's pass-through behavior");
    private final ProviderTable<WorkerSelectorProvider> selectors =
        new ProviderTable<>("worker-selection", "worker-selection", "sluice's built-in selector");

    /** No plugins linked. */
    public RouterPlugins() {
    }

    /**
     * The plugins of every {@link RouterPluginCatalog} that {@link ServiceLoader} finds through {@code loader} (the
     * built-ins on the classpath plus the jars of {@code --plugin-path}).
     */
    public static RouterPlugins loadCatalogs(ClassLoader loader) throws RegistryException {
        RouterPlugins plugins = new RouterPlugins();
        try {
            for (RouterPluginCatalog catalog : ServiceLoader.load(RouterPluginCatalog.class, loader)) {
                catalog.register(plugins);
            }
        } catch (ServiceConfigurationError e) {
            throw new RegistryException(RegistryException.Kind.CATALOG, null,
                "could not load a router plugin catalog: " + e.getMessage(), e);
        }
        return plugins;
    }

    /**
     * The built-in worker selector (type {@code default}, Dynamo's KV-router cost) with these settings: what
     * {@link #resolveWorkerSelector} returns for a role without an instance of its own.
     */
    public static WorkerSelectorFactory builtinWorkerSelector(DefaultSelectorSettings settings) {
        return DefaultWorkerSelector.factory(settings);
    }

    @Override
    public void registerRequestClassifier(String type, RequestClassifierProvider provider) throws RegistryException {
        classifiers.register(type, provider);
    }

    @Override
    public void registerWorkerSelector(String type, WorkerSelectorProvider provider) throws RegistryException {
        selectors.register(type, provider);
    }

    /** The registered classifier types, sorted. */
    public Set<String> requestClassifierTypes() {
        return classifiers.types();
    }

    /** The registered worker-selection types, sorted (the built-in {@code default} is not listed). */
    public Set<String> workerSelectorTypes() {
        return selectors.types();
    }

    /** True when no plugin of any kind is registered. */
    public boolean isEmpty() {
        return classifiers.isEmpty() && selectors.isEmpty();
    }

    /**
     * Resolves the policy file's {@code request_classifier} section: absent means pass-through (empty). The
     * provider runs here, once; the returned factory runs once per model router.
     */
    public Optional<RequestClassifierFactory> resolveRequestClassifier(Optional<PluginSection> section)
        throws RegistryException {
        if (section.isEmpty()) {
            return Optional.empty();
        }
        PluginSection plugin = section.get();
        RequestClassifierProvider provider;
        try {
            provider = classifiers.require(plugin.type());
        } catch (RegistryException e) {
            throw positioned(e, plugin.atType(e.getMessage()));
        }
        try {
            RequestClassifierFactory factory = provider.provide(new RequestClassifierParameters(plugin.parameters()));
            if (factory == null) {
                throw new ProviderException("provider returned no factory");
            }
            return Optional.of(factory);
        } catch (ProviderException | RuntimeException e) {
            RegistryException error = classifiers.providerError(plugin.type(), e);
            throw positioned(error, plugin.atParameters(error.getMessage()));
        }
    }

    /** {@code e} with {@code message}: the same error, located in the policy file when its section came from one. */
    private static RegistryException positioned(RegistryException e, String message) {
        return new RegistryException(e.kind(), e.type(), message, e.getCause());
    }

    /**
     * The selector factory for {@code role} ({@code aggregated}, {@code prefill}, {@code decode}, {@code encode}):
     * the built-in default selector with Dynamo's defaults when there is no {@code worker_selection} section, the
     * role is unset or names {@code default}; otherwise the named instance's provider runs here, once per call, and
     * its factory runs once per model router. An instance of type {@code default} configures the built-in selector
     * ({@code overlap_score_weight}, {@code router_temperature}).
     */
    public WorkerSelectorFactory resolveWorkerSelector(Optional<WorkerSelectionConfig> config, String role)
        throws RegistryException {
        return resolveWorkerSelector(config, role, DefaultSelectorSettings.DEFAULTS);
    }

    /**
     * As {@link #resolveWorkerSelector(Optional, String)}, with {@code fallback} (for instance the router's
     * command-line settings) used when the built-in selector serves the role without an instance of its own.
     */
    public WorkerSelectorFactory resolveWorkerSelector(Optional<WorkerSelectionConfig> config, String role,
                                                       DefaultSelectorSettings fallback) throws RegistryException {
        Objects.requireNonNull(role, "role");
        String name = config.isEmpty() ? null : config.get().instanceFor(role);
        if (name == null || name.equals(DEFAULT_TYPE)) {
            return builtinWorkerSelector(fallback);
        }
        WorkerSelectionConfig.Instance instance = config.get().instance(name);
        if (instance == null) {
            throw new RegistryException(RegistryException.Kind.UNKNOWN_TYPE, null,
                "worker_selection " + role + " \"" + name + "\" does not name a configured instance", null);
        }
        PluginSection plugin = instance.plugin();
        WorkerSelectorProvider provider;
        try {
            provider = plugin.type().equals(DEFAULT_TYPE) ? DefaultSelectorProvider.INSTANCE
                : selectors.require(plugin.type());
        } catch (RegistryException e) {
            throw positioned(e, plugin.atType(e.getMessage()));
        }
        try {
            WorkerSelectorFactory factory = provider.provide(new WorkerSelectorParameters(plugin.parameters()));
            if (factory == null) {
                throw new ProviderException("provider returned no factory");
            }
            return factory;
        } catch (ProviderException | RuntimeException e) {
            RegistryException error = selectors.providerError(plugin.type(), e);
            throw positioned(error, plugin.atParameters(error.getMessage()));
        }
    }
}
