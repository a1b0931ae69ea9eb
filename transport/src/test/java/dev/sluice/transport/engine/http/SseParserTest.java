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

    @Test
    void shouldSplitLinesOfEveryLengthAtEachKindOfEnd() {
        for (String end : List.of("\n", "\r", "\r\n")) {
            StringBuilder stream = new StringBuilder();
            List<String> expected = new ArrayList<>();
            for (int length = 0; length < 20; length++) {
                String value = "v".repeat(length);
                stream.append("data: ").append(value).append(end).append(end);
                expected.add("message|" + value);
            }
            events.clear();
            byte[] bytes = stream.toString().getBytes(StandardCharsets.UTF_8);
            SseParser fresh = new SseParser((type, data, offset, length) -> events.add(
                type + "|" + new String(data, offset, length, StandardCharsets.UTF_8)), 64);
            for (int at = 0; at < bytes.length; at += 7) {
                fresh.feed(bytes, at, Math.min(7, bytes.length - at));
            }
            assertEquals(expected, events, "lines ending with " + end.replace("\r", "CR").replace("\n", "LF"));
        }
    }

    @Test
    void shouldReadFieldsWithoutAColonOrSpaceAndAnEventTypeThatIsNotAscii() {
        feed("data\ndata:x\nevent:tür\n\nevent\ndata:  two spaces\n\n");
        assertEquals(List.of("tür|\nx", "message| two spaces"), events,
            "a bare field name has an empty value; only one space after the colon is dropped");
    }

    @Test
    void shouldAcceptALineAtTheLimitAlsoWhenItComesInPieces() {
        byte[] line = ("data: " + "x".repeat(58) + "\n\n").getBytes(StandardCharsets.UTF_8);
        assertTrue(parser.feed(line, 0, 30));
        assertTrue(parser.feed(line, 30, line.length - 30), "64 bytes before the end");
        assertEquals(List.of("message|" + "x".repeat(58)), events);
        byte[] longer = ("data: " + "x".repeat(59)).getBytes(StandardCharsets.UTF_8);
        assertTrue(parser.feed(longer, 0, 40));
        assertFalse(parser.feed(longer, 40, longer.length - 40), "65 bytes over two pieces");
    }

    @Test
    void shouldHandEachEventItsOwnBytesThoughTheBufferIsReused() {
        List<String> copies = new ArrayList<>();
        SseParser fresh = new SseParser((type, data, offset, length) -> {
            copies.add(new String(data, offset, length, StandardCharsets.UTF_8));
        }, 1 << 16);
        String big = "y".repeat(2000);
        byte[] bytes = ("data: short\n\ndata: " + big + "\ndata: b\n\ndata: s\n\n").getBytes(StandardCharsets.UTF_8);
        fresh.feed(bytes, 0, bytes.length);
        assertEquals(List.of("short", big + "\nb", "s"), copies);
    }
}
