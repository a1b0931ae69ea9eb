package dev.sluice.plugins.queuebudget;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;
import java.time.Duration;

/**
 * The {@code queue-budget} classifier type. Parameters: {@code max_wait_ms} (required, 1..60000). Unknown
 * parameters stop startup. Each router gets its own {@link QueueBudgetClassifier}.
 */
public final class QueueBudgetProvider implements RequestClassifierProvider {
    /** The type name the router-policy YAML selects. */
    public static final String TYPE = "queue-budget";

    /** The YAML parameters; a missing key binds as {@code null}. */
    record Parameters(@JsonProperty("max_wait_ms") Long maxWaitMs) {
    }

    @Override
    public RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException {
        Parameters bound = parameters.bind(Parameters.class);
        if (bound.maxWaitMs() == null) {
            throw new ProviderException("max_wait_ms is required");
        }
        if (bound.maxWaitMs() < 1 || bound.maxWaitMs() > 60_000) {
            throw new ProviderException("max_wait_ms must be between 1 and 60000");
        }
        long budgetNs = Duration.ofMillis(bound.maxWaitMs()).toNanos();
        return context -> new QueueBudgetClassifier(context.clock(), budgetNs);
    }
}
