/**
 * Plugin registration: a {@link dev.sluice.core.spi.RouterPluginCatalog} (found through {@link java.util.ServiceLoader})
 * registers {@link dev.sluice.core.spi.RequestClassifierProvider}s by type name in the
 * {@link dev.sluice.core.spi.RouterPluginRegistry}; the router-policy YAML selects one by {@code type}. The provider
 * validates the YAML {@code parameters} once at startup and returns a
 * {@link dev.sluice.core.spi.RequestClassifierFactory}, called once per model router.
 */
package dev.sluice.core.spi;
