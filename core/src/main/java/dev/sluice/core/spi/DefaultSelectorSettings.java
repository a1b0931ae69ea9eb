package dev.sluice.core.spi;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The built-in selector's parameters (dynamo-mocker.md §7.1), as a {@code worker_selection} instance of type
 * {@code default} may set them.
 *
 * @param overlapScoreWeight {@code overlap_score_weight}: weight of prefill blocks in the cost; 0 ignores the
 *                           cache (pure load balancing). Finite, {@code >= 0}; default 1.0.
 * @param routerTemperature  {@code router_temperature}: 0 picks the cheapest worker; above 0 samples a softmax
 *                           over normalised costs. Finite, {@code >= 0}; default 0.0.
 */
public record DefaultSelectorSettings(double overlapScoreWeight, double routerTemperature) {
    /** Dynamo's defaults: weight 1.0, temperature 0.0. */
    public static final DefaultSelectorSettings DEFAULTS = new DefaultSelectorSettings(1.0, 0.0);

    public DefaultSelectorSettings {
        check("overlap_score_weight", overlapScoreWeight);
        check("router_temperature", routerTemperature);
    }

    private static void check(String name, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, was " + value);
        }
    }

    /** The provider registered for type {@code default}: binds and validates the two parameters. */
    static WorkerSelectorFactory provide(WorkerSelectorParameters parameters) throws ProviderException {
        Raw raw = parameters.bind(Raw.class);
        try {
            DefaultSelectorSettings settings = new DefaultSelectorSettings(
                raw.overlapScoreWeight == null ? DEFAULTS.overlapScoreWeight : raw.overlapScoreWeight,
                raw.routerTemperature == null ? DEFAULTS.routerTemperature : raw.routerTemperature);
            return DefaultWorkerSelector.factory(settings);
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
