package dev.sluice.transport.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Event-stream framing as servers send it, in pieces of every size. */
class SseParserTest {
    private final List<String> events = new ArrayList<>();
    private final SseParser parser = new SseParser((type, data, offset, length) -> events.add(
        type + "|" + new String(data, offset, length, StandardCharsets.UTF_8)), 64);

    private void feed(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        parser.feed(bytes, 0, bytes.length);
    }

    @Test
    void shouldParseTheSameEventsWhateverWayTheBytesAreSplit() {
        String stream = "data: {\"a\":\"é€\"}\r\n\r\n: keep-alive comment\n\ndata:x\rdata: y\r\rdata: [DONE]\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        List<String> expected = List.of("message|{\"a\":\"é€\"}", "message|x\ny", "message|[DONE]");
        for (int size = 1; size <= bytes.length; size++) {
            events.clear();
            SseParser fresh = new SseParser((type, data, offset, length) -> events.add(
        type + "|" + new String(data, offset, length, StandardCharsets.UTF_8)), 64);
            for (int at = 0; at < bytes.length; at += size) {
                fresh.feed(bytes, at, Math.min(size, bytes.length - at));
            }
            assertEquals(expected, events, "pieces of " + size + " bytes");
        }
    }

    @Test
    void shouldIgnoreCommentsIdsAndEventsWithoutData() {
        feed(": ping\n\nid: 7\nretry: 100\n\nevent: nothing\n\n");
        assertTrue(events.isEmpty(), events::toString);
        feed("data:\n\n");
        assertEquals(List.of("message|"), events, "an empty data line is still an event");
    }

    @Test
    void shouldCarryTheEventTypeOfErrorEvents() {
        feed("event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\ndata: next\n\n");
        assertEquals(List.of("error|{\"error\":{\"message\":\"boom\"}}", "message|next"), events);
    }

    @Test
    void shouldDropAnEventLeftOpenAtTheEndOfInput() {
        feed("data: complete\n\ndata: half");
        assertEquals(List.of("message|complete"), events);
    }

    @Test
    void shouldRefuseALineOverTheLimit() {
        byte[] line = ("data: " + "x".repeat(100)).getBytes(StandardCharsets.UTF_8);
        assertFalse(parser.feed(line, 0, line.length));
        feed("\n\ndata: later\n\n");
        assertTrue(events.isEmpty(), "nothing after an overflow: " + events);
    }
}
