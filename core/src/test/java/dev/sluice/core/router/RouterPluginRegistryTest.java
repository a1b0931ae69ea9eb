package dev.sluice.core.router;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.RequestClassifierContext;
import dev.sluice.core.config.PluginSection;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.RequestClassifierFactory;
import dev.sluice.core.spi.RequestClassifierProvider;
import dev.sluice.core.testing.TestClocks;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Registry and provider scenarios (dynamo-tests.md §2.1, dynamo.md §9 items 21–23). */
class RouterPluginRegistryTest {
    /** Strict parameters of the test provider. */
    record Limit(int limit) {
    }

    private static final RequestClassifierContext CONTEXT =
        new RequestClassifierContext("model", 16, List::of, TestClocks.started());

    static RequestClassifierProvider limitProvider(AtomicInteger providerCalls) {
        return parameters -> {
            providerCalls.incrementAndGet();
            Limit limit = parameters.bind(Limit.class);
            if (limit.limit() <= 0) {
                throw new ProviderException("limit must be greater than zero");
            }
            return context -> new RequestClassifier() { };
        };
    }

    private static Optional<PluginSection> section(String type, ObjectNode parameters) {
        return Optional.of(new PluginSection(type, parameters));
    }

    private static ObjectNode limit(int value) {
        return JsonNodeFactory.instance.objectNode().put("limit", value);
    }

    @Test
    void shouldResolveALinkedClassifierAndValidateItsParametersOnce() throws Exception {
        AtomicInteger providerCalls = new AtomicInteger();
        RouterPlugins registry = new RouterPlugins();
        registry.registerRequestClassifier("test", limitProvider(providerCalls));

        RequestClassifierFactory factory = registry.resolveRequestClassifier(section("test", limit(4))).orElseThrow();
        RequestClassifier first = factory.create(CONTEXT);
        RequestClassifier second = factory.create(CONTEXT);

        assertNotSame(first, second);
        assertEquals(1, providerCalls.get());
    }

    @Test
    void shouldStopStartupWithTheProvidersMessageForInvalidParameters() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        registry.registerRequestClassifier("test", limitProvider(new AtomicInteger()));

        RegistryException error = assertThrows(RegistryException.class,
            () -> registry.resolveRequestClassifier(section("test", limit(0))));
        assertEquals(RegistryException.Kind.PROVIDER, error.kind());
        assertEquals("test", error.type());
        assertEquals("invalid parameters for request-classifier type \"test\": limit must be greater than zero",
            error.getMessage());
    }

    @Test
    void shouldRejectUnknownParameterFieldsByName() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        registry.registerRequestClassifier("test", limitProvider(new AtomicInteger()));

        RegistryException error = assertThrows(RegistryException.class,
            () -> registry.resolveRequestClassifier(section("test", limit(3).put("limt", 4))));
        assertTrue(error.getMessage().startsWith(
            "invalid parameters for request-classifier type \"test\": unknown parameter \"limt\""), error::getMessage);
    }

    @Test
    void shouldRejectEmptyReservedAndDuplicateNames() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        RequestClassifierProvider provider = parameters -> context -> new RequestClassifier() { };

        RegistryException empty = assertThrows(RegistryException.class,
            () -> registry.registerRequestClassifier("", provider));
        assertEquals("request-classifier type must not be empty", empty.getMessage());
        RegistryException reserved = assertThrows(RegistryException.class,
            () -> registry.registerRequestClassifier("default", provider));
        assertEquals(RegistryException.Kind.RESERVED_DEFAULT, reserved.kind());
        assertEquals("request-classifier type 'default' is reserved for sluice's pass-through behavior",
            reserved.getMessage());
        registry.registerRequestClassifier("test", provider);
        RegistryException duplicate = assertThrows(RegistryException.class,
            () -> registry.registerRequestClassifier("test", provider));
        assertEquals("request-classifier type \"test\" is already registered", duplicate.getMessage());
    }

    @Test
    void shouldListTheLinkedTypesWhenTheConfiguredTypeIsUnknown() throws Exception {
        RegistryException none = assertThrows(RegistryException.class,
            () -> new RouterPlugins().resolveRequestClassifier(section("test", limit(1))));
        assertEquals("unknown request-classifier type \"test\"; linked classifier types: <none>", none.getMessage());

        RouterPlugins registry = new RouterPlugins();
        RequestClassifierProvider provider = parameters -> context -> new RequestClassifier() { };
        registry.registerRequestClassifier("zeta", provider);
        registry.registerRequestClassifier("alpha", provider);
        RegistryException unknown = assertThrows(RegistryException.class,
            () -> registry.resolveRequestClassifier(section("test", limit(1))));
        assertEquals("unknown request-classifier type \"test\"; linked classifier types: alpha, zeta",
            unknown.getMessage());
    }

    @Test
    void shouldUsePassThroughWhenNoSectionIsConfigured() throws Exception {
        assertTrue(new RouterPlugins().resolveRequestClassifier(Optional.empty()).isEmpty());
    }

    @Test
    void shouldFindCatalogsThroughServiceLoader() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());

        assertTrue(registry.requestClassifierTypes().contains(TestCatalog.TYPE));
        RequestClassifierFactory factory = registry.resolveRequestClassifier(
            section(TestCatalog.TYPE, JsonNodeFactory.instance.objectNode())).orElseThrow();
        factory.create(CONTEXT);
        factory.create(CONTEXT);
        assertEquals(1, TestCatalog.PROVIDER_CALLS.get());
        assertEquals(2, TestCatalog.FACTORY_CALLS.get());
    }
}
