/**
 * The built-in plugins of sluice, registered by {@link dev.sluice.plugins.BuiltinCatalog}. Plugins use only the
 * {@code api} and {@code spi} packages of core.
 */
package dev.sluice.plugins;
