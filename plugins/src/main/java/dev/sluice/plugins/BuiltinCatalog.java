package dev.sluice.plugins;

import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RouterPluginCatalog;
import dev.sluice.core.spi.RouterPluginRegistry;
import dev.sluice.plugins.queuebudget.QueueBudgetProvider;
import dev.sluice.plugins.ratelimit.TokenRateLimitProvider;
import dev.sluice.plugins.thunderagent.ThunderAgentProvider;
import dev.sluice.plugins.thunderagent.ThunderAgentWorkerSelector;

/**
 * The plugins that ship with sluice: the classifiers {@code thunderagent}, {@code queue-budget} and
 * {@code token-rate-limit}, and the {@code thunderagent} worker selector. Found through
 * {@link java.util.ServiceLoader}; linking them enables none: the policy file selects one by type.
 */
public final class BuiltinCatalog implements RouterPluginCatalog {
    @Override
    public void register(RouterPluginRegistry registry) throws RegistryException {
        registry.registerRequestClassifier(ThunderAgentProvider.TYPE, new ThunderAgentProvider());
        registry.registerRequestClassifier(QueueBudgetProvider.TYPE, new QueueBudgetProvider());
        registry.registerRequestClassifier(TokenRateLimitProvider.TYPE, new TokenRateLimitProvider());
        registry.registerWorkerSelector(ThunderAgentWorkerSelector.TYPE, new ThunderAgentWorkerSelector.Provider());
    }
}
