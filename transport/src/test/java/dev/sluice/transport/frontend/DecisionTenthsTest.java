package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The waited_ms of the decision header: milliseconds with one decimal, rounded half up, as %.1f wrote them. */
class DecisionTenthsTest {
    @Test
    void shouldWriteMillisecondsWithOneDecimal() {
        assertEquals("0.0", CompletionsEndpoint.tenths(0));
        assertEquals("0.0", CompletionsEndpoint.tenths(49_999));
        assertEquals("0.1", CompletionsEndpoint.tenths(50_000));
        assertEquals("12.5", CompletionsEndpoint.tenths(12_460_000));
        assertEquals("1000.0", CompletionsEndpoint.tenths(999_999_999));
        assertEquals("0.0", CompletionsEndpoint.tenths(-5), "a clock step back is not a negative wait");
    }
}
