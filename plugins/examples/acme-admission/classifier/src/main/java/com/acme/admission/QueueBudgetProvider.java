package com.acme.admission;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierParameters;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;
import java.time.Duration;

/** Validates the YAML parameters once at startup and returns the factory sluice calls per model router. */
final class QueueBudgetProvider implements RequestClassifierProvider {
    record Parameters(@JsonProperty(value = "max_wait_ms", required = true) long maxWaitMs) {
    }

    @Override
    public RequestClassifierFactory provide(RequestClassifierParameters parameters) throws ProviderException {
        Parameters bound = parameters.bind(Parameters.class);
        if (bound.maxWaitMs() < 1 || bound.maxWaitMs() > 60_000) {
            throw new ProviderException("max_wait_ms must be between 1 and 60000");
        }
        long budgetNs = Duration.ofMillis(bound.maxWaitMs()).toNanos();
        return context -> new QueueBudget(context.clock(), budgetNs);
    }
}
