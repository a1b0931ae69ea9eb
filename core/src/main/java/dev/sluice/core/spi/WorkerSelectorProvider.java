package dev.sluice.core.spi;

import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.WorkerSelectorParameters;

/**
 * Validates a worker-selection type's YAML {@code parameters} once at startup and returns the factory that builds
 * its selectors. Reject bad parameters with a {@link ProviderException} whose message names the parameter and what
 * was expected; it stops startup and is shown to the operator verbatim.
 */
@FunctionalInterface
public interface WorkerSelectorProvider {
    WorkerSelectorFactory provide(WorkerSelectorParameters parameters) throws ProviderException;
}
