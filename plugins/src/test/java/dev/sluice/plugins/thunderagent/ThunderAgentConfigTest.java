package dev.sluice.plugins.thunderagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.config.PluginSection;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.router.RouterPlugins;
import dev.sluice.plugins.BuiltinCatalog;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parameters of {@code thunderagent}: defaults, validation messages, startup errors through the registry. */
class ThunderAgentConfigTest {

    /** Dynamo: validates_control_values (the default part). */
    @Test
    void shouldDefaultEveryParameter() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of());
        assertEquals(ThunderAgentConfig.defaults(), config);
        assertEquals(0.95, config.pauseThreshold());
        assertEquals(0.80, config.pauseTarget());
        assertEquals(0.10, config.resumeHysteresis());
        assertEquals(1_800_000_000_000L, config.resumeTimeoutNs());
        assertEquals(1_800_000_000_000L, config.sessionRetentionNs());
        assertEquals(5_000_000_000L, config.schedulerIntervalNs());
        assertEquals(1.0, config.actingTokenWeight());
        assertEquals(1.0, config.actingDecayTauSeconds());
        assertEquals(100, config.bufferPerProgram());
        assertEquals(10_000, config.maxTrackedRequests());
        assertFalse(config.sharedPrefixBudget());
        assertFalse(config.resumeFirstFit());
        assertFalse(config.markEnough());
    }

    @Test
    void shouldTakeResumePackingAndPauseMarkingInEitherModeAndNameABadValue() {
        ThunderAgentConfig fit = ThunderHarness.config(Map.of("resume_packing", "first_fit", "pause_marking",
            "enough"));
        assertTrue(fit.resumeFirstFit() && fit.markEnough());
        ThunderAgentConfig dynamo = ThunderHarness.config(Map.of("resume_packing", "prefix", "pause_marking", "all"));
        assertEquals(ThunderAgentConfig.defaults(), dynamo);
        ThunderAgentConfig paper = ThunderHarness.config(Map.of("mode", "paper", "resume_packing", "first_fit"));
        assertTrue(paper.resumeFirstFit() && paper.decayInPauses());
        assertFalse(paper.markEnough());
        assertEquals("invalid ThunderAgent configuration: resume_packing must be prefix or first_fit, was largest",
            assertThrows(IllegalArgumentException.class,
                () -> ThunderHarness.config(Map.of("resume_packing", "largest"))).getMessage());
        assertEquals("invalid ThunderAgent configuration: pause_marking must be all or enough, was some",
            assertThrows(IllegalArgumentException.class,
                () -> ThunderHarness.config(Map.of("pause_marking", "some"))).getMessage());
    }

    @Test
    void shouldTakeTheSharedPrefixBudgetInEitherModeAndRejectANonBoolean() throws Exception {
        assertTrue(ThunderHarness.config(Map.of("shared_prefix_budget", true)).sharedPrefixBudget());
        assertTrue(ThunderHarness.config(Map.of("mode", "paper", "shared_prefix_budget", true)).sharedPrefixBudget());
        assertFalse(ThunderHarness.config(Map.of("mode", "paper")).sharedPrefixBudget());
        RouterPlugins registry = new RouterPlugins();
        new BuiltinCatalog().register(registry);
        RegistryException e = assertThrows(RegistryException.class, () -> registry.resolveRequestClassifier(
            section("request_classifier:\n  type: thunderagent\n  parameters:\n"
                + "    shared_prefix_budget: sometimes\n")));
        assertEquals("test.yaml:3:3: request_classifier.parameters: invalid parameters for request-classifier type"
            + " \"thunderagent\": invalid ThunderAgent configuration: shared_prefix_budget must be true or false,"
            + " was sometimes", e.getMessage());
        IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
            () -> ThunderHarness.config(Map.of("shared_prefix_budget", 1)));
        assertEquals("invalid ThunderAgent configuration: shared_prefix_budget must be true or false, was 1",
            number.getMessage());
    }

    @Test
    void shouldTakeThePapersWatermarksAndDecayInPaperMode() {
        ThunderAgentConfig paper = ThunderHarness.config(Map.of("mode", "paper"));
        assertEquals(1.0, paper.pauseThreshold());
        assertEquals(1.0, paper.pauseTarget());
        assertEquals(0.0, paper.resumeHysteresis());
        assertTrue(paper.decayInPauses());
        assertEquals(ThunderAgentConfig.defaults().resumeTimeoutNs(), paper.resumeTimeoutNs());
        ThunderAgentConfig overridden = ThunderHarness.config(Map.of("mode", "paper", "pause_target", 0.9));
        assertEquals(0.9, overridden.pauseTarget());
        assertEquals(1.0, overridden.pauseThreshold());
        assertFalse(ThunderHarness.config(Map.of("mode", "dynamo")).decayInPauses());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ThunderHarness.config(Map.of("mode", "vllm")));
        assertEquals("invalid ThunderAgent configuration: mode must be dynamo or paper, was vllm", e.getMessage());
    }

    @Test
    void shouldAcceptFractionalSecondsAndEveryKey() {
        ThunderAgentConfig config = ThunderHarness.config(Map.of("pause_threshold", 0.9, "pause_target", 0.5,
            "resume_hysteresis", 0.2, "resume_timeout_seconds", 0.02, "session_retention_seconds", 60,
            "scheduler_interval_seconds", 0.05, "acting_token_weight", 0.5, "acting_decay_tau_seconds", 2.0,
            "buffer_per_program", 0, "max_tracked_requests", 7));
        assertEquals(20_000_000L, config.resumeTimeoutNs());
        assertEquals(50_000_000L, config.schedulerIntervalNs());
        assertEquals(60_000_000_000L, config.sessionRetentionNs());
        assertEquals(0, config.bufferPerProgram());
        assertEquals(7, config.maxTrackedRequests());
    }

    /** Dynamo: validates_control_values (pause_target 0.96, scheduler_interval_seconds 0) and the other reasons. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "pause_threshold|1.5|pause_threshold must be in [0, 1]",
        "pause_threshold|-0.1|pause_threshold must be in [0, 1]",
        "pause_target|0.96|pause_target must not exceed pause_threshold",
        "pause_target|1.1|pause_target must be in [0, 1]",
        "resume_hysteresis|0.99|resume_hysteresis must not exceed pause_threshold",
        "resume_hysteresis|2|resume_hysteresis must be in [0, 1]",
        "resume_timeout_seconds|0|resume_timeout_seconds must be positive",
        "session_retention_seconds|-1|session_retention_seconds must be positive",
        "scheduler_interval_seconds|0|scheduler_interval_seconds must be positive",
        "acting_token_weight|0|acting_token_weight must be finite and positive",
        "acting_decay_tau_seconds|-2|acting_decay_tau_seconds must be finite and positive",
        "buffer_per_program|-1|buffer_per_program must not be negative",
        "max_tracked_requests|0|max_tracked_requests must be positive"})
    void shouldRejectOutOfRangeValuesNamingTheParameter(String key, double value, String reason) {
        Object typed = key.equals("buffer_per_program") || key.equals("max_tracked_requests") ? (Object) (long) value
            : (Object) value;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ThunderHarness.config(Map.of(key, typed)));
        assertEquals("invalid ThunderAgent configuration: " + reason, e.getMessage());
    }

    /** Dynamo: thunderagent_parameters_are_validated_at_startup. */
    @Test
    void shouldStopStartupNamingTheBadOrUnknownParameter() throws Exception {
        RouterPlugins registry = new RouterPlugins();
        new BuiltinCatalog().register(registry);
        RegistryException range = assertThrows(RegistryException.class, () -> registry.resolveRequestClassifier(
            section("request_classifier:\n  type: thunderagent\n  parameters:\n    pause_target: 1.1\n")));
        assertEquals("test.yaml:3:3: request_classifier.parameters: invalid parameters for request-classifier type"
            + " \"thunderagent\": invalid ThunderAgent configuration: pause_target must be in [0, 1]",
            range.getMessage());
        RegistryException unknown = assertThrows(RegistryException.class, () -> registry.resolveRequestClassifier(
            section("request_classifier:\n  type: thunderagent\n  parameters:\n    unknown_parameter: 1\n")));
        assertTrue(unknown.getMessage().contains("unknown_parameter"), unknown::getMessage);
    }

    /** Dynamo: request_classifier_only_config_preserves_parameter_mapping / registers_classifier (factory part). */
    @Test
    void shouldResolveThunderAgentFromPolicyYamlAndBuildAClassifierPerRouter() throws Exception {
        RouterPlugins registry = RouterPlugins.loadCatalogs(getClass().getClassLoader());
        var factory = registry.resolveRequestClassifier(
            section("request_classifier:\n  type: thunderagent\n  parameters:\n    pause_threshold: 0.9\n"))
            .orElseThrow();
        var context = new dev.sluice.core.api.RequestClassifierContext("m", 16, java.util.List::of,
            dev.sluice.core.testing.TestClocks.started());
        assertTrue(factory.create(context) instanceof ThunderAgentClassifier);
        assertTrue(factory.create(context) != factory.create(context));
    }

    private static Optional<PluginSection> section(String yaml) throws Exception {
        return RouterPolicyLoader.parse(yaml, "test.yaml").requestClassifier();
    }
}
