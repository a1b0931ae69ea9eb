package dev.sluice.core.api;

/**
 * The built-in selector's parameters (dynamo-mocker.md §7.1), as a {@code worker_selection} instance of type
 * {@code default} may set them, or a host gives them as the fallback for roles without an instance.
 *
 * @param overlapScoreWeight {@code overlap_score_weight}: weight of prefill blocks in the cost; 0 ignores the
 *                           cache (pure load balancing). Finite, {@code >= 0}; default 1.0.
 * @param routerTemperature  {@code router_temperature}: 0 picks the cheapest worker; above 0 samples a softmax
 *                           over normalised costs. Finite, {@code >= 0}; default 0.0.
 */
public record DefaultSelectorSettings(double overlapScoreWeight, double routerTemperature) {
    /** Dynamo's defaults: weight 1.0, temperature 0.0. */
    public static final DefaultSelectorSettings DEFAULTS = new DefaultSelectorSettings(1.0, 0.0);

    /** Validates both parameters: finite and {@code >= 0}; the message names the YAML key. */
    public DefaultSelectorSettings {
        check("overlap_score_weight", overlapScoreWeight);
        check("router_temperature", routerTemperature);
    }

    private static void check(String name, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, was " + value);
        }
    }
}
