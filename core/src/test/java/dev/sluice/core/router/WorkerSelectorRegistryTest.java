package dev.sluice.core.router;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.api.ProviderException;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.PluginSection;
import dev.sluice.core.config.WorkerSelectionConfig;
import dev.sluice.core.select.DefaultWorkerSelector;
import dev.sluice.core.select.SelectionCandidates;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RequestClassifier;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.spi.WorkerSelectorFactory;
import dev.sluice.core.spi.WorkerSelectorProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Worker-selection registration and resolution: the classifier rules (dynamo.md §3.2) for {@code worker_selection}. */
class WorkerSelectorRegistryTest {
    /** Strict parameters of the test provider. */
    record Rank(int rank) {
    }

    private static final WorkerSelectorContext CONTEXT =
        new WorkerSelectorContext("model", 16, new SplittableRandom(1));

    private static final WorkerSelectorProvider FIRST = parameters -> context -> inputs -> 0;

    /** Picks candidate {@code rank}; rejects a negative one. Counts its calls. */
    private static WorkerSelectorProvider rankProvider(AtomicInteger calls) {
        return parameters -> {
            calls.incrementAndGet();
            int rank = parameters.bind(Rank.class).rank();
            if (rank < 0) {
                throw new ProviderException("rank must be >= 0");
            }
            return context -> inputs -> rank < inputs.candidateCount() ? rank : WorkerSelector.NONE;
        };
    }

    private static Optional<WorkerSelectionConfig> aggregated(String type, ObjectNode parameters) {
        return Optional.of(new WorkerSelectionConfig(Map.of("aggregated", "mine"),
            List.of(new WorkerSelectionConfig.Instance("mine", new PluginSection(type, parameters)))));
    }

    private static ObjectNode params() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Test
    void shouldRejectEmptyReservedAndDuplicateNames() throws Exception {
        RouterPlugins registry = new RouterPlugins();

        RegistryException empty = assertThrows(RegistryException.class,
            () -> registry.registerWorkerSelector("", FIRST));
        assertEquals(RegistryException.Kind.EMPTY_NAME, empty.kind());
        assertEquals("worker-selection type must not be empty", empty.getMessage());
        RegistryException reserved = assertThrows(RegistryException.class,
            () -> registry.registerWorkerSelector("default", FIRST));
        assertEquals(RegistryException.Kind.RESERVED_DEFAULT, reserved.kind());
        assertEquals("worker-selection type 'default' is reserved for sluice's built-in selector",
            reserved.getMessage());
        registry.registerWorkerSelector("first", FIRST);
        RegistryException duplicate = assertThrows(RegistryException.class,
            () -> registry.registerWorkerSelector("first", FIRST));
        assertEquals(RegistryException.Kind.DUPLICATE, duplicate.kind());
        assertEquals("worker-selection type \"first\" is already registered", duplicate.getMessage());
    }

    @Test
    void shouldKeepClassifierAndSelectorNamesApart() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        assertTrue(registry.isEmpty());

        registry.registerWorkerSelector("thunderagent", FIRST);
        registry.registerRequestClassifier("thunderagent", parameters -> context -> new RequestClassifier() { });

        assertFalse(registry.isEmpty());
        assertEquals(List.of("thunderagent"), List.copyOf(registry.workerSelectorTypes()));
    }

    @Test
    void shouldListTheLinkedTypesWhenTheConfiguredTypeIsUnknown() throws Exception {
        RegistryException none = assertThrows(RegistryException.class,
            () -> new RouterPlugins().resolveWorkerSelector(aggregated("custom", params()), "aggregated"));
        assertEquals(RegistryException.Kind.UNKNOWN_TYPE, none.kind());
        assertEquals("unknown worker-selection type \"custom\"; linked worker-selection types: <none>",
            none.getMessage());

        RouterPlugins registry = new RouterPlugins();
        registry.registerWorkerSelector("zeta", FIRST);
        registry.registerWorkerSelector("alpha", FIRST);
        RegistryException unknown = assertThrows(RegistryException.class,
            () -> registry.resolveWorkerSelector(aggregated("custom", params()), "aggregated"));
        assertEquals("unknown worker-selection type \"custom\"; linked worker-selection types: alpha, zeta",
            unknown.getMessage());
    }

    @Test
    void shouldResolveTheConfiguredInstanceAndValidateItsParametersOnce() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RouterPlugins registry = new RouterPlugins();
        registry.registerWorkerSelector("ranked", rankProvider(calls));

        WorkerSelectorFactory factory = registry.resolveWorkerSelector(
            aggregated("ranked", params().put("rank", 1)), "aggregated");
        WorkerSelector first = factory.create(CONTEXT);
        WorkerSelector second = factory.create(CONTEXT);

        assertNotSame(first, second);
        assertEquals(1, calls.get());
        SelectionCandidates inputs = new SelectionCandidates().reset(16, 1, null, null);
        inputs.add(WorkerWithDpRank.of(1), 0, 1).add(WorkerWithDpRank.of(2), 0, 1);
        assertEquals(1, first.select(inputs));
    }

    @Test
    void shouldStopStartupWithTheProvidersMessage() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        registry.registerWorkerSelector("ranked", rankProvider(new AtomicInteger()));

        RegistryException refused = assertThrows(RegistryException.class,
            () -> registry.resolveWorkerSelector(aggregated("ranked", params().put("rank", -1)), "aggregated"));
        assertEquals(RegistryException.Kind.PROVIDER, refused.kind());
        assertEquals("ranked", refused.type());
        assertEquals("invalid parameters for worker-selection type \"ranked\": rank must be >= 0",
            refused.getMessage());
        RegistryException unknownField = assertThrows(RegistryException.class,
            () -> registry.resolveWorkerSelector(aggregated("ranked", params().put("rank", 1).put("rnak", 2)),
                "aggregated"));
        assertTrue(unknownField.getMessage().startsWith(
            "invalid parameters for worker-selection type \"ranked\": unknown parameter \"rnak\""),
            unknownField::getMessage);
    }

    @Test
    void shouldUseTheBuiltInSelectorWhenNothingElseIsConfigured() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        registry.registerWorkerSelector("ranked", rankProvider(new AtomicInteger()));
        Optional<WorkerSelectionConfig> prefillOnly = Optional.of(new WorkerSelectionConfig(
            Map.of("prefill", "mine", "decode", "default"),
            List.of(new WorkerSelectionConfig.Instance("mine", new PluginSection("ranked", params().put("rank", 0))))));

        assertInstanceOf(DefaultWorkerSelector.class,
            registry.resolveWorkerSelector(Optional.empty(), "aggregated").create(CONTEXT));
        assertInstanceOf(DefaultWorkerSelector.class,
            registry.resolveWorkerSelector(prefillOnly, "aggregated").create(CONTEXT));
        assertInstanceOf(DefaultWorkerSelector.class,
            registry.resolveWorkerSelector(prefillOnly, "decode").create(CONTEXT));
        assertFalse(registry.resolveWorkerSelector(prefillOnly, "prefill").create(CONTEXT)
            instanceof DefaultWorkerSelector);
    }

    @Test
    void shouldConfigureTheBuiltInSelectorThroughAnInstanceOfTypeDefault() throws Exception {
        WorkerSelector pureLoad = new RouterPlugins().resolveWorkerSelector(
            aggregated("default", params().put("overlap_score_weight", 0)), "aggregated").create(CONTEXT);
        SelectionCandidates inputs = new SelectionCandidates().reset(160, 10, null, null);
        inputs.add(WorkerWithDpRank.of(1), 10, 0).load(0, 12);
        inputs.add(WorkerWithDpRank.of(2), 0, 10);

        assertEquals(1, pureLoad.select(inputs), "weight 0 ignores the cache hit on worker 1");
    }

    @Test
    void shouldRejectInvalidBuiltInParametersByName() {
        RouterPlugins registry = new RouterPlugins();

        RegistryException negative = assertThrows(RegistryException.class, () -> registry.resolveWorkerSelector(
            aggregated("default", params().put("overlap_score_weight", -1)), "aggregated"));
        assertEquals("invalid parameters for worker-selection type \"default\": overlap_score_weight must be a"
            + " finite number >= 0, was -1.0", negative.getMessage());
        RegistryException temperature = assertThrows(RegistryException.class, () -> registry.resolveWorkerSelector(
            aggregated("default", params().put("router_temperature", Double.NaN)), "aggregated"));
        assertEquals("invalid parameters for worker-selection type \"default\": router_temperature must be a"
            + " finite number >= 0, was NaN", temperature.getMessage());
        RegistryException unknown = assertThrows(RegistryException.class, () -> registry.resolveWorkerSelector(
            aggregated("default", params().put("temperature", 1)), "aggregated"));
        assertTrue(unknown.getMessage().startsWith(
            "invalid parameters for worker-selection type \"default\": unknown parameter \"temperature\""),
            unknown::getMessage);
    }

    @Test
    void shouldFindSelectorsThroughServiceLoaderCatalogs() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());

        assertTrue(registry.workerSelectorTypes().contains(TestCatalog.SELECTOR_TYPE));
        registry.resolveWorkerSelector(aggregated(TestCatalog.SELECTOR_TYPE, params()), "aggregated").create(CONTEXT);
    }
}
