package dev.sluice.core.spi;

/**
 * A set of plugins to link into sluice. Implementations are found with {@link java.util.ServiceLoader}: list the
 * class in {@code META-INF/services/dev.sluice.core.spi.RouterPluginCatalog} of the plugin's jar and put the jar on
 * the classpath or in {@code --plugin-path}. One catalog may register classifiers and worker selectors.
 */
public interface RouterPluginCatalog {
    /** Registers this catalog's plugins; a registration error stops startup. */
    void register(RouterPluginRegistry registry) throws RegistryException;
}
