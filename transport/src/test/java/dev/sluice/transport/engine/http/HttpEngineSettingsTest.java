package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.transport.engine.EngineRuntimeConfig;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Engine URLs as users write them. */
class HttpEngineSettingsTest {
    @ParameterizedTest
    @CsvSource({
        "http://127.0.0.1:8001, http://127.0.0.1:8001/v1/completions",
        "http://127.0.0.1:8001/, http://127.0.0.1:8001/v1/completions",
        "http://127.0.0.1:8001/v1, http://127.0.0.1:8001/v1/completions",
        "http://127.0.0.1:8001/v1/, http://127.0.0.1:8001/v1/completions",
        "HTTPS://engine.internal/pool-a, HTTPS://engine.internal/pool-a/v1/completions"
    })
    void shouldPostToTheCompletionsPathOfABaseUrl(String url, String expected) {
        assertEquals(expected, HttpEngineSettings.completionsUri(url).toString());
    }

    @ParameterizedTest
    @CsvSource({
        "http://127.0.0.1:8001, http://127.0.0.1:8001/v1/models",
        "http://127.0.0.1:8001/v1/, http://127.0.0.1:8001/v1/models",
        "https://engine.internal/pool-a, https://engine.internal/pool-a/v1/models"
    })
    void shouldProbeTheModelsPathNextToTheCompletionsPath(String url, String expected) {
        HttpEngineSettings settings = HttpEngineSettings.of(url, "m", Duration.ofSeconds(1), Duration.ofSeconds(1),
            new EngineRuntimeConfig(16, 16, 16, 1, 1));
        assertEquals(expected, settings.modelsUri().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost:8001", "ftp://127.0.0.1:8001", "http:///v1", "http://h:1/v1?x=1",
        "http://user@h:1", "http://h:1/v1#top", "not a url"})
    void shouldRefuseUrlsItCannotPostTo(String url) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> HttpEngineSettings.completionsUri(url));
        assertTrue(error.getMessage().startsWith("engine URL '" + url + "' is invalid: "), error::getMessage);
    }
}
