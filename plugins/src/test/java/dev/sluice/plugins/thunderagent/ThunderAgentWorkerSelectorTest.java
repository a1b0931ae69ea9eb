package dev.sluice.plugins.thunderagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.api.WorkerSelectorContext;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.core.router.RouterContext;
import dev.sluice.core.select.SelectionCandidates;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.testing.SteppedRouter;
import dev.sluice.plugins.BuiltinCatalog;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** ThunderAgent's worker selector: the classifier's target when eligible, else the least loaded candidate. */
class ThunderAgentWorkerSelectorTest {
    private static final String YAML = """
        request_classifier:
          type: thunderagent
        worker_selection:
          aggregated: thunderagent
          instances:
            - name: thunderagent
              type: thunderagent
        """;

    private static WorkerSelector selector() {
        return new ThunderAgentWorkerSelector(16);
    }

    /** Dynamo: honors_the_classifier_target_when_eligible. */
    @Test
    void shouldPickTheClassifiersTargetWhenItIsACandidate() {
        SelectionCandidates inputs = new SelectionCandidates().reset(64, 4, WorkerWithDpRank.of(2), null)
            .add(WorkerWithDpRank.of(1), 0, 4).add(WorkerWithDpRank.of(2), 0, 4).load(10_000, 100);
        assertEquals(1, selector().select(inputs));
    }

    /** Dynamo: falls_back_when_the_classifier_target_is_unavailable. */
    @Test
    void shouldPickTheLeastLoadedCandidateWhenTheTargetIsNotEligible() {
        SelectionCandidates inputs = new SelectionCandidates().reset(64, 4, WorkerWithDpRank.of(9), null)
            .add(WorkerWithDpRank.of(2), 0, 4).load(1, 10)
            .add(WorkerWithDpRank.of(3), 0, 4).load(100, 0)
            .add(WorkerWithDpRank.of(4), 0, 4).load(4, 5);
        assertEquals(2, selector().select(inputs), "costs 161, 100, 84");
        SelectionCandidates tie = new SelectionCandidates().reset(64, 4, null, null)
            .add(WorkerWithDpRank.of(1), 0, 4).load(16, 0).add(WorkerWithDpRank.of(2), 0, 4).load(0, 1);
        assertEquals(0, selector().select(tie), "equal cost: worker order");
        assertEquals(WorkerSelector.NONE, selector().select(new SelectionCandidates().reset(1, 0, null, null)));
    }

    /** Dynamo: registers_classifier_and_worker_selector / builtin_registration_preserves_classifiers... */
    @Test
    void shouldResolveBothPluginsFromOnePolicyFileAlongsideOtherCatalogs() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        registry.registerRequestClassifier("custom", parameters -> context -> null);
        new BuiltinCatalog().register(registry);
        assertTrue(registry.requestClassifierTypes().containsAll(java.util.Set.of("custom", "thunderagent")));
        RouterPolicyConfig config = RouterPolicyLoader.parse(YAML, "thunderagent.yaml");
        assertTrue(registry.resolveRequestClassifier(config.requestClassifier()).isPresent());
        WorkerSelector selector = registry.resolveWorkerSelector(config.workerSelection(), "aggregated")
            .create(new WorkerSelectorContext("m", 16, new SplittableRandom(1)));
        assertTrue(selector instanceof ThunderAgentWorkerSelector);
    }

    /** Dynamo: worker_selection_rejects_admission_parameters. */
    @Test
    void shouldRejectAdmissionParametersOnTheSelector() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        new BuiltinCatalog().register(registry);
        RouterPolicyConfig empty = RouterPolicyLoader.parse(YAML + "      parameters: {}\n", "t.yaml");
        assertTrue(registry.resolveWorkerSelector(empty.workerSelection(), "aggregated") != null);
        RouterPolicyConfig bad = RouterPolicyLoader.parse(YAML + "      parameters:\n"
            + "        pause_threshold: 0.9\n", "t.yaml");
        RegistryException e = assertThrows(RegistryException.class,
            () -> registry.resolveWorkerSelector(bad.workerSelection(), "aggregated"));
        assertTrue(e.getMessage().contains("pause_threshold"), e::getMessage);
    }

    @Test
    void shouldKeepAContinuationOnItsWorkerThroughTheRouter() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());
        RouterPolicyConfig config = RouterPolicyLoader.parse(YAML, "thunderagent.yaml");
        RouterContext context = new RouterContext()
            .classifierFactory(registry.resolveRequestClassifier(config.requestClassifier()).orElseThrow())
            .workerSelector(registry.resolveWorkerSelector(config.workerSelection(), "aggregated"));
        try (SteppedRouter r = new SteppedRouter(null, context)) {
            r.router.workerJoined(WorkerWithDpRank.of(1), 4096, OptionalLong.of(128));
            r.router.workerJoined(WorkerWithDpRank.of(2), 4096, OptionalLong.of(128));
            r.step();
            long first = r.submit(AdmissionRequest.builder("first").inputTokens(64)
                .sessionContext(SessionContext.of("s")).build());
            WorkerWithDpRank placed = r.listener.outcome(first).worker();
            r.router.completed(first, 100);
            r.step();
            long busy = r.submit(AdmissionRequest.builder("busy").inputTokens(3000).build());
            assertEquals(placed, r.listener.outcome(busy).worker(), "least loaded: both idle, first in order");
            long next = r.submit(AdmissionRequest.builder("next").inputTokens(64)
                .sessionContext(SessionContext.of("s")).build());
            assertEquals(placed, r.listener.outcome(next).worker());
            long other = r.submit(AdmissionRequest.builder("other").inputTokens(64).build());
            assertEquals(WorkerWithDpRank.of(2), r.listener.outcome(other).worker());
        }
    }
}
