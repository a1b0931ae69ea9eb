package dev.sluice.core.spi;

import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;

/**
 * Validates a classifier type's YAML {@code parameters} once at startup and returns the factory that builds its
 * classifiers. Reject bad parameters with a {@link ProviderException} whose message names the parameter and what
 * was expected; it stops startup and is shown to the operator verbatim.
 */
@FunctionalInterface
public interface RequestClassifierProvider {
    RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException;
}
