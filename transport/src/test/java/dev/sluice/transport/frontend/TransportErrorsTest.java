package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.transport.openai.OpenAiException;
import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.Status;
import org.junit.jupiter.api.Test;

/** Helidon's own answers become fixed-text JSON errors: 431 for oversized headers, no exception text ever. */
class TransportErrorsTest {
    @Test
    void shouldAnswer431ToHelidonsHeaderSizeEvent() {
        OpenAiException error = TransportErrors.error(EventType.BAD_REQUEST, Status.BAD_REQUEST_400,
            TransportErrors.HEADER_SIZE_EXCEEDED);
        assertEquals(431, error.status());
        assertEquals("request_header_fields_too_large", error.code());
    }

    @Test
    void shouldNeverEchoTheEventsMessage() {
        for (EventType type : EventType.values()) {
            OpenAiException error = TransportErrors.error(type, type.defaultStatus(), "jdbc://admin:secret@db");
            assertFalse(error.getMessage().contains("secret"), type + ": " + error.getMessage());
            assertEquals(type.defaultStatus().code(), error.status(), type.name());
        }
    }

    @Test
    void shouldNameABodyOverTheLimit() {
        assertEquals("payload_too_large", TransportErrors.error(EventType.BAD_REQUEST,
            Status.REQUEST_ENTITY_TOO_LARGE_413, "whatever").code());
    }
}
