package com.acme.admission.catalog;

import com.acme.admission.AcmeAdmission;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RouterPluginCatalog;
import dev.sluice.core.spi.RouterPluginRegistry;

/** The catalog sluice finds with ServiceLoader; it links every Acme plugin. */
public final class AcmeCatalog implements RouterPluginCatalog {
    @Override
    public void register(RouterPluginRegistry registry) throws RegistryException {
        AcmeAdmission.register(registry);
    }
}
