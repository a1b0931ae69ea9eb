package dev.sluice.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Status mapping (dynamo.md §7, §9 items 41–45). */
class ErrorModelTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"not-a-code", "99", "100", "199", "1000", " ", "-429", "4 29", "+429"})
    void shouldFallBackTo529ForInvalidOverloadStatus(String configured) {
        assertEquals(529, OverloadStatus.parse(configured));
    }

    @ParameterizedTest
    @CsvSource({"200,200", "503,503", "529,529", "600,600", "999,999", "' 429 ',429"})
    void shouldKeepAValidOverloadStatus(String configured, int expected) {
        assertEquals(expected, OverloadStatus.parse(configured));
    }

    @Test
    void shouldAnswerCapacityWithTheOverloadStatusAndRateLimitsWith429() {
        AdmissionError capacity = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED);
        assertEquals(529, capacity.httpStatus(529));
        assertEquals(429, capacity.httpStatus(429));
        assertEquals(429, AdmissionError.of(ErrorClass.RATE_LIMITED).httpStatus(529));
        assertEquals(503, AdmissionError.of(ErrorClass.UNAVAILABLE).httpStatus(529));
        assertEquals(500, AdmissionError.of(ErrorClass.INTERNAL).httpStatus(529));
        assertEquals(504, AdmissionError.of(ErrorClass.DEADLINE_EXCEEDED).httpStatus(529));
        assertEquals(429, AdmissionError.of(ErrorClass.DEADLINE_EXCEEDED).status(429).httpStatus(529));
    }

    @Test
    void shouldKeepTheDiagnosticOutOfThePublicMessage() {
        AdmissionError error = AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
            .diagnostic("admission wait budget exhausted")
            .publicMessage("Admission wait budget exhausted; retry later");
        assertEquals("Admission wait budget exhausted; retry later", error.publicMessage());
        assertEquals("admission wait budget exhausted", error.diagnostic());
        assertEquals("Service temporarily overloaded", AdmissionError.of(ErrorClass.CAPACITY_EXHAUSTED)
            .publicMessage());
        assertEquals("capacity_exhausted", error.reason());
    }

    @Test
    void shouldRaiseProgressMonotonically() {
        RequestProgress.Updater updater = RequestProgress.create(42);
        updater.updateContextTokens(55);
        updater.updateContextTokens(50);
        assertEquals(55, updater.progress().contextTokens());
    }
}
