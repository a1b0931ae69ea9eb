package dev.sluice.core.router;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.spi.RegistryException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A plugin section read from a file that cannot be resolved (an unknown type, parameters its provider refuses) is an
 * error with the file, line, column and key path, as every other error of the policy file.
 */
class PluginSectionPositionTest {
    private static RouterPlugins plugins() throws RegistryException {
        RouterPlugins plugins = new RouterPlugins();
        plugins.registerRequestClassifier("limit", RouterPluginRegistryTest.limitProvider(new AtomicInteger()));
        return plugins;
    }

    private static String classifierError(String yaml) throws Exception {
        RouterPolicyConfig config = RouterPolicyLoader.parse(yaml, "admission.yaml");
        RouterPlugins plugins = plugins();
        return assertThrows(RegistryException.class,
            () -> plugins.resolveRequestClassifier(config.requestClassifier())).getMessage();
    }

    @Test
    void shouldLocateAnUnknownClassifierTypeAtItsTypeKey() throws Exception {
        assertEquals("admission.yaml:2:3: request_classifier.type: unknown request-classifier type \"acme\"; linked"
            + " classifier types: limit", classifierError("request_classifier:\n  type: acme\n"));
    }

    @Test
    void shouldLocateParametersTheProviderRefusesAtTheParametersKey() throws Exception {
        assertEquals("admission.yaml:3:3: request_classifier.parameters: invalid parameters for request-classifier"
            + " type \"limit\": limit must be greater than zero",
            classifierError("request_classifier:\n  type: limit\n  parameters:\n    limit: 0\n"));
    }

    @Test
    void shouldLocateMissingParametersAtTheTypeKey() throws Exception {
        String message = classifierError("request_classifier:\n  type: limit\n");
        assertEquals("admission.yaml:2:3: request_classifier.type: invalid parameters for request-classifier type"
            + " \"limit\":", message.substring(0, message.indexOf(':', message.indexOf("\"limit\"")) + 1));
    }

    @Test
    void shouldLocateAnUnknownWorkerSelectorTypeAtItsTypeKey() throws Exception {
        RouterPolicyConfig config = RouterPolicyLoader.parse("worker_selection:\n  aggregated: mine\n  instances:\n"
            + "    - name: mine\n      type: nope\n", "admission.yaml");
        RouterPlugins plugins = plugins();
        assertEquals("admission.yaml:5:7: worker_selection.instances[0].type: unknown worker-selection type"
            + " \"nope\"; linked worker-selection types: <none>", assertThrows(RegistryException.class,
                () -> plugins.resolveWorkerSelector(config.workerSelection(), "aggregated")).getMessage());
    }
}
