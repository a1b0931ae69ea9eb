package dev.sluice.core.select;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.DefaultSelectorSettings;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.WorkerSelectorParameters;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.core.spi.WorkerSelectorProvider;

/**
 * The provider behind a {@code worker_selection} instance of the reserved type {@code default}: binds and validates
 * the built-in selector's two parameters; an absent key keeps Dynamo's default.
 */
public final class DefaultSelectorProvider implements WorkerSelectorProvider {
    /** The one instance; stateless. */
    public static final DefaultSelectorProvider INSTANCE = new DefaultSelectorProvider();

    private DefaultSelectorProvider() {
    }

    @Override
    public WorkerSelectorFactory provide(WorkerSelectorParameters parameters) throws ProviderException {
        Raw raw = parameters.bind(Raw.class);
        DefaultSelectorSettings defaults = DefaultSelectorSettings.DEFAULTS;
        try {
            return DefaultWorkerSelector.factory(new DefaultSelectorSettings(
                raw.overlapScoreWeight == null ? defaults.overlapScoreWeight() : raw.overlapScoreWeight,
                raw.routerTemperature == null ? defaults.routerTemperature() : raw.routerTemperature));
        } catch (IllegalArgumentException e) {
            throw new ProviderException(e.getMessage(), e);
        }
    }

    /** The YAML shape; boxed so an absent key means "use the default". */
    record Raw(Double overlapScoreWeight, Double routerTemperature) {
        @JsonCreator
        Raw(@JsonProperty("overlap_score_weight") Double overlapScoreWeight,
            @JsonProperty("router_temperature") Double routerTemperature) {
            this.overlapScoreWeight = overlapScoreWeight;
            this.routerTemperature = routerTemperature;
        }
    }
}
