package dev.sluice.core.spi;

import dev.sluice.core.api.RequestClassifierContext;

/**
 * Creates one classifier per model router, when the router is built (not per request). Each instance owns its
 * state; separate routers and separate frontend replicas share nothing unless the plugin arranges it.
 */
@FunctionalInterface
public interface RequestClassifierFactory {
    RequestClassifier create(RequestClassifierContext context);
}
