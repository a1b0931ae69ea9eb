package dev.sluice.core.spi;

import dev.sluice.core.config.PluginSection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The plugins linked into this process, by type name. Filled at startup by {@link RouterPluginCatalog}s, then
 * resolved once against the policy file's sections before any router is built. Not thread-safe: build it on one
 * thread, then only read it.
 */
public final class RouterPluginRegistry {
    /** The reserved name of the pass-through behaviour. */
    public static final String DEFAULT_TYPE = "default";

    private final Map<String, RequestClassifierProvider> classifiers = new TreeMap<>();

    /** An empty registry. */
    public RouterPluginRegistry() {
    }

    /**
     * A registry filled by every {@link RouterPluginCatalog} that {@link ServiceLoader} finds through
     * {@code loader} (the built-ins on the classpath plus the jars of {@code --plugin-path}).
     */
    public static RouterPluginRegistry loadCatalogs(ClassLoader loader) throws RegistryException {
        RouterPluginRegistry registry = new RouterPluginRegistry();
        try {
            for (RouterPluginCatalog catalog : ServiceLoader.load(RouterPluginCatalog.class, loader)) {
                catalog.register(registry);
            }
        } catch (ServiceConfigurationError e) {
            throw new RegistryException(RegistryException.Kind.CATALOG, null,
                "could not load a router plugin catalog: " + e.getMessage(), e);
        }
        return registry;
    }

    /** Registers a classifier type. */
    public void registerRequestClassifier(String type, RequestClassifierProvider provider) throws RegistryException {
        Objects.requireNonNull(provider, "provider");
        if (type == null || type.isEmpty()) {
            throw new RegistryException(RegistryException.Kind.EMPTY_NAME, type,
                "request-classifier type must not be empty", null);
        }
        if (DEFAULT_TYPE.equals(type)) {
            throw new RegistryException(RegistryException.Kind.RESERVED_DEFAULT, type,
                "request-classifier type 'default' is reserved for sluice's pass-through behavior", null);
        }
        if (classifiers.containsKey(type)) {
            throw new RegistryException(RegistryException.Kind.DUPLICATE, type,
                "request-classifier type \"" + type + "\" is already registered", null);
        }
        classifiers.put(type, provider);
    }

    /** The registered classifier types, sorted. */
    public java.util.Set<String> requestClassifierTypes() {
        return java.util.Collections.unmodifiableSet(classifiers.keySet());
    }

    /** True when no plugin of any kind is registered. */
    public boolean isEmpty() {
        return classifiers.isEmpty();
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
        String type = section.get().type();
        RequestClassifierProvider provider = classifiers.get(type);
        if (provider == null) {
            String linked = classifiers.isEmpty() ? "<none>" : String.join(", ", classifiers.keySet());
            throw new RegistryException(RegistryException.Kind.UNKNOWN_TYPE, type,
                "unknown request-classifier type \"" + type + "\"; linked classifier types: " + linked, null);
        }
        try {
            RequestClassifierFactory factory = provider.provide(
                new RequestClassifierParameters(section.get().parameters()));
            if (factory == null) {
                throw new ProviderException("provider returned no factory");
            }
            return Optional.of(factory);
        } catch (ProviderException e) {
            throw new RegistryException(RegistryException.Kind.PROVIDER, type,
                "invalid parameters for request-classifier type \"" + type + "\": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new RegistryException(RegistryException.Kind.PROVIDER, type,
                "invalid parameters for request-classifier type \"" + type + "\": provider failed: " + e, e);
        }
    }
}
