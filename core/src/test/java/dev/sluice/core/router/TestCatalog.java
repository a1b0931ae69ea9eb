package dev.sluice.core.router;

import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RouterPluginCatalog;
import dev.sluice.core.spi.RouterPluginRegistry;
import dev.sluice.core.spi.WorkerSelector;
import java.util.concurrent.atomic.AtomicInteger;

/** A catalog of one classifier and one worker selector, found through META-INF/services in the test classpath. */
public final class TestCatalog implements RouterPluginCatalog {
    static final String TYPE = "test-catalog-classifier";
    static final String SELECTOR_TYPE = "test-catalog-selector";
    static final AtomicInteger PROVIDER_CALLS = new AtomicInteger();
    static final AtomicInteger FACTORY_CALLS = new AtomicInteger();

    /** For {@link java.util.ServiceLoader}. */
    public TestCatalog() {
    }

    @Override
    public void register(RouterPluginRegistry registry) throws RegistryException {
        registry.registerRequestClassifier(TYPE, parameters -> {
            PROVIDER_CALLS.incrementAndGet();
            return context -> {
                FACTORY_CALLS.incrementAndGet();
                return new RequestClassifier() { };
            };
        });
        registry.registerWorkerSelector(SELECTOR_TYPE, parameters -> context -> inputs -> WorkerSelector.NONE);
    }
}
