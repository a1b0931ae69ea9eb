package com.acme.admission;

import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RouterPluginRegistry;

/** Registers the Acme classifiers; called from a catalog. */
public final class AcmeAdmission {
    private AcmeAdmission() {
    }

    public static void register(RouterPluginRegistry registry) throws RegistryException {
        registry.registerRequestClassifier("acme-queue-budget", new QueueBudgetProvider());
    }
}
