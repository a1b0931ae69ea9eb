package dev.sluice.transport.engine.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A push parser for Server-Sent Events (the WHATWG event-stream format): feed it bytes as they arrive, in pieces of
 * any size, and it calls {@link Handler#onEvent} once per complete event with the event's data as raw bytes (no
 * decoding, so a UTF-8 character split across pieces survives; the handler decodes). Lines end with LF, CRLF or CR
 * (also when the CR and the LF arrive in different pieces). A line that is whole in its piece is read where it lies;
 * only a line split across pieces is gathered first. Comment lines ({@code :...}) and the {@code id} and
 * {@code retry} fields are ignored without decoding; several {@code data} lines of one event are joined with LF. An
 * event still open when the input ends is dropped, as the format says. Not thread-safe: the thread reading the
 * stream owns it; once warm it allocates nothing but the type of an event that names one.
 */
public final class SseParser {
    /** Receives complete events. */
    public interface Handler {
        /**
         * One event.
         *
         * @param type the {@code event} field, or {@code "message"} when absent.
         * @param data the {@code data} lines joined with LF, as UTF-8 bytes at {@code data[offset, offset + length)};
         *             valid only during the call (the parser reuses the array).
         */
        void onEvent(String type, byte[] data, int offset, int length);
    }

    private static final String MESSAGE = "message";

    private final Handler handler;
    private final int maxLineBytes;
    /** The start of a line that did not end in its piece; made for the first such line. */
    private byte[] line;
    private int lineLength;
    private boolean afterCr;
    private boolean overflow;
    private byte[] data = new byte[512];
    private int dataLength;
    private boolean hasData;
    private String type;

    /** A parser that refuses lines longer than {@code maxLineBytes} (an upstream sending garbage). */
    public SseParser(Handler handler, int maxLineBytes) {
        this.handler = handler;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Parses {@code length} bytes from {@code offset}.
     *
     * @return false once a line exceeded the limit; the parser then ignores further input.
     */
    public boolean feed(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int at = offset;
        while (at < end && !overflow) {
            if (afterCr) {
                afterCr = false;
                if (bytes[at] == '\n') {
                    at++;
                    continue;
                }
            }
            int stop = ByteScan.lineEnd(bytes, at, end);
            if (lineLength + (stop - at) > maxLineBytes) {
                overflow = true;
                break;
            }
            if (stop == end) {
                gather(bytes, at, stop - at);
                break;
            }
            afterCr = bytes[stop] == '\r';
            if (lineLength == 0) {
                endLine(bytes, at, stop - at);
            } else {
                gather(bytes, at, stop - at);
                int whole = lineLength;
                lineLength = 0;
                endLine(line, 0, whole);
            }
            at = stop + 1;
        }
        return !overflow;
    }

    private void gather(byte[] bytes, int from, int count) {
        if (line == null) {
            line = new byte[Math.min(maxLineBytes, Math.max(256, count))];
        } else if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(line.length * 2, lineLength + count)));
        }
        System.arraycopy(bytes, from, line, lineLength, count);
        lineLength += count;
    }

    /** The line at {@code bytes[from, from + length)}, without its end. */
    private void endLine(byte[] bytes, int from, int length) {
        if (length == 0) {
            dispatch();
            return;
        }
        if (bytes[from] == ':') {
            return;
        }
        int end = from + length;
        int colon = from;
        while (colon < end && bytes[colon] != ':') {
            colon++;
        }
        int value = colon < end ? colon + 1 : end;
        if (value < end && bytes[value] == ' ') {
            value++;
        }
        int nameLength = colon - from;
        if (nameLength == 4 && bytes[from] == 'd' && bytes[from + 1] == 'a' && bytes[from + 2] == 't'
            && bytes[from + 3] == 'a') {
            appendData(bytes, value, end - value);
        } else if (nameLength == 5 && bytes[from] == 'e' && bytes[from + 1] == 'v' && bytes[from + 2] == 'e'
            && bytes[from + 3] == 'n' && bytes[from + 4] == 't') {
            type = new String(bytes, value, end - value, StandardCharsets.UTF_8);
        }
    }

    private void appendData(byte[] bytes, int from, int count) {
        int needed = dataLength + count + (hasData ? 1 : 0);
        if (needed > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, needed));
        }
        if (hasData) {
            data[dataLength++] = '\n';
        }
        System.arraycopy(bytes, from, data, dataLength, count);
        dataLength += count;
        hasData = true;
    }

    private void dispatch() {
        if (hasData) {
            handler.onEvent(type == null || type.isEmpty() ? MESSAGE : type, data, 0, dataLength);
        }
        dataLength = 0;
        hasData = false;
        type = null;
    }
}
