package dev.sluice.transport.engine.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A push parser for Server-Sent Events (the WHATWG event-stream format): feed it bytes as they arrive, in pieces of
 * any size, and it calls {@link Handler#onEvent} once per complete event. Lines end with LF, CRLF or CR (also when
 * the CR and the LF arrive in different pieces); a line is decoded as UTF-8 only once whole, so a character split
 * across pieces survives. Comment lines ({@code :...}) and the {@code id} and {@code retry} fields are ignored;
 * several {@code data} lines of one event are joined with LF. An event still open when the input ends is dropped,
 * as the format says. Not thread-safe: one reader thread owns it.
 */
final class SseParser {
    /** Receives complete events. */
    interface Handler {
        /**
         * One event.
         *
         * @param type the {@code event} field, or {@code "message"} when absent.
         * @param data the {@code data} lines joined with LF.
         */
        void onEvent(String type, String data);
    }

    private final Handler handler;
    private final int maxLineBytes;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean afterCr;
    private boolean overflow;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String type;

    /** A parser that refuses lines longer than {@code maxLineBytes} (an upstream sending garbage). */
    SseParser(Handler handler, int maxLineBytes) {
        this.handler = handler;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Parses {@code length} bytes from {@code offset}.
     *
     * @return false once a line exceeded the limit; the parser then ignores further input.
     */
    boolean feed(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length && !overflow; i++) {
            byte b = bytes[i];
            if (b == '\n' && afterCr) {
                afterCr = false;
                continue;
            }
            afterCr = b == '\r';
            if (b == '\n' || b == '\r') {
                endLine();
            } else if (lineLength == maxLineBytes) {
                overflow = true;
            } else {
                if (lineLength == line.length) {
                    line = Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
                }
                line[lineLength++] = b;
            }
        }
        return !overflow;
    }

    private void endLine() {
        if (lineLength >= 5 && line[0] == 'd' && line[1] == 'a' && line[2] == 't' && line[3] == 'a' && line[4] == ':') {
            // The line of nearly every event: decode only its value.
            int from = lineLength > 5 && line[5] == ' ' ? 6 : 5;
            if (hasData) {
                data.append('\n');
            }
            data.append(new String(line, from, lineLength - from, StandardCharsets.UTF_8));
            hasData = true;
            lineLength = 0;
            return;
        }
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        lineLength = 0;
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (field.equals("data")) {
            if (hasData) {
                data.append('\n');
            }
            data.append(value);
            hasData = true;
        } else if (field.equals("event")) {
            type = value;
        }
    }

    private void dispatch() {
        if (hasData) {
            handler.onEvent(type == null || type.isEmpty() ? "message" : type, data.toString());
        }
        data.setLength(0);
        hasData = false;
        type = null;
    }
}
