package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.testing.CapturedStderr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Configuration errors are logged once per problem, listed while they last, and cleared by a success. */
class EngineConfigErrorsTest {
    @Test
    void shouldLogOnceListAndClearOnSuccess() {
        EngineConfigErrors errors = new EngineConfigErrors(List.of("http://a:1", "http://b:2"));
        try (CapturedStderr log = CapturedStderr.start()) {
            errors.onMisconfigured(1, "the engine does not serve the model `m` (HTTP 404)");
            errors.onMisconfigured(1, "the engine does not serve the model `m` (HTTP 404)");
            assertEquals(List.of("worker 1 (http://b:2): the engine does not serve the model `m` (HTTP 404)"),
                errors.describe());
            assertEquals(1, errors.count());
            assertFalse(errors.all());
            errors.onMisconfigured(0, "the engine refused sluice's request as unauthorized (HTTP 401)");
            assertTrue(errors.all());

            errors.onSuccess(1);
            errors.onSuccess(1);
            assertEquals(List.of("worker 0 (http://a:1): the engine refused sluice's request as unauthorized "
                + "(HTTP 401)"), errors.describe());
            assertEquals(1, log.count("worker 1 (http://b:2) is misconfigured"), log::text);
            assertEquals(1, log.count("worker 1 (http://b:2) serves requests again"), log::text);
        }
    }
}
