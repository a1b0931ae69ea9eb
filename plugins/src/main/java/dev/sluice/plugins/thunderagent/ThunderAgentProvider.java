package dev.sluice.plugins.thunderagent;

import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;

/**
 * The {@code thunderagent} classifier type: program-aware (agent-session-aware) admission. All ten parameters are
 * optional; unknown ones and out-of-range values stop startup with {@code invalid ThunderAgent configuration: ...}.
 * Each model router gets its own {@link ThunderAgentClassifier}.
 */
public final class ThunderAgentProvider implements RequestClassifierProvider {
    /** The type name the router-policy YAML selects. */
    public static final String TYPE = "thunderagent";

    @Override
    public RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException {
        ThunderAgentConfig config = ThunderAgentConfig.from(parameters.bind(ThunderAgentConfig.Parameters.class));
        return context -> new ThunderAgentClassifier(config, context);
    }
}
