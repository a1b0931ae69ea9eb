package dev.sluice.transport.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one table of error types by status, and the status lines sluice answers with. */
class OpenAiExceptionTest {
    @ParameterizedTest
    @CsvSource({"400, invalid_request_error", "404, invalid_request_error", "413, invalid_request_error",
        "431, invalid_request_error", "401, authentication_error", "403, permission_error", "429, rate_limit_error",
        "500, internal_error", "501, internal_error", "502, upstream_error", "503, service_unavailable",
        "504, timeout", "529, overloaded_error", "418, invalid_request_error", "599, internal_error"})
    void shouldTypeEachErrorByItsStatus(int status, String type) {
        assertEquals(type, new OpenAiException(status, "m", null, "c").type());
        assertEquals(type, OpenAiException.typeOf(status));
    }

    @ParameterizedTest
    @CsvSource({"529, Overloaded", "429, Too Many Requests", "503, Service Unavailable"})
    void shouldAnswerWithAReasonPhrase(int status, String phrase) {
        assertEquals(phrase, new OpenAiException(status, "m", null, "c").httpStatus().reasonPhrase());
    }
}
