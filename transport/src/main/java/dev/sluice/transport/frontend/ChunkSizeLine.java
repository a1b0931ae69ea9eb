package dev.sluice.transport.frontend;

import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import java.util.Set;

/**
 * One chunk-size line of a chunked request body (RFC 9112 §7.1: {@code chunk-size [ chunk-ext ] CRLF}), its CRLF
 * removed: the size in hex digits, then any chunk extensions ({@code ;name} or {@code ;name=value}, the value a token
 * or a quoted string, with optional blanks around {@code ;} and {@code =}), which are checked and ignored. A line
 * that is not one is a 400 whose message is fixed text naming the problem ({@link #REASONS}), never the client's
 * bytes. Stateless; thread-safe.
 */
final class ChunkSizeLine {
    /** The longest chunk-size line accepted, extensions included, without its CRLF. */
    static final int MAX_LENGTH = 4096;
    static final String NOT_HEX = "Malformed chunked request body: a chunk size must be hexadecimal digits";
    static final String TOO_LARGE = "Malformed chunked request body: a chunk size must be at most 7fffffff";
    static final String TOO_LONG = "Malformed chunked request body: a chunk-size line must be at most "
        + MAX_LENGTH + " bytes";
    static final String BAD_EXTENSION = "Malformed chunked request body: a chunk extension must be ;name or "
        + ";name=value, the value a token or a quoted string";
    static final String BARE_LINE_BREAK = "Malformed chunked request body: a chunk-size line must end with CRLF, "
        + "not a bare CR or LF";
    static final String TRAILERS = "Malformed chunked request body: trailer fields after the last chunk are not "
        + "accepted";
    /** Every message a malformed line gets: fixed text the client may see. */
    static final Set<String> REASONS = Set.of(NOT_HEX, TOO_LARGE, TOO_LONG, BAD_EXTENSION, BARE_LINE_BREAK,
        TRAILERS);

    private ChunkSizeLine() {
    }

    /** The size the first {@code length} bytes of {@code line} give, or a 400 {@link #malformed} exception. */
    static int parse(byte[] line, int length) {
        long size = 0;
        int at = 0;
        while (at < length && hex(line[at]) >= 0) {
            size = size * 16 + hex(line[at++]);
            if (size > Integer.MAX_VALUE) {
                throw malformed(TOO_LARGE);
            }
        }
        if (at == 0) {
            throw malformed(NOT_HEX);
        }
        if (!extensions(line, at, length)) {
            throw malformed(at < length && line[at] != ';' && !blank(line[at]) ? NOT_HEX : BAD_EXTENSION);
        }
        return (int) size;
    }

    /** A 400 for a malformed chunked body; the connection closes after it (the framing is lost). */
    static RequestException malformed(String reason) {
        return RequestException.builder()
            .type(EventType.BAD_REQUEST)
            .status(Status.BAD_REQUEST_400)
            .message(reason)
            .safeMessage(true)
            .setKeepAlive(false)
            .build();
    }

    /** Whether {@code line[from, length)} is {@code *( BWS ";" BWS name [ BWS "=" BWS value ] )}. */
    private static boolean extensions(byte[] line, int from, int length) {
        int at = from;
        while (at < length) {
            at = blanks(line, at, length);
            if (at == length || line[at] != ';') {
                return false;
            }
            at = blanks(line, at + 1, length);
            int name = token(line, at, length);
            if (name == at) {
                return false;
            }
            at = blanks(line, name, length);
            if (at < length && line[at] == '=') {
                at = blanks(line, at + 1, length);
                int value = at < length && line[at] == '"' ? quoted(line, at, length) : token(line, at, length);
                if (value <= at) {
                    return false;
                }
                at = value;
            }
        }
        return true;
    }

    private static int blanks(byte[] line, int at, int length) {
        while (at < length && blank(line[at])) {
            at++;
        }
        return at;
    }

    private static int token(byte[] line, int at, int length) {
        while (at < length && tchar(line[at])) {
            at++;
        }
        return at;
    }

    /** The end of the quoted string starting at {@code at}, or -1 when it is not one. */
    private static int quoted(byte[] line, int at, int length) {
        for (int i = at + 1; i < length; i++) {
            int c = line[i] & 0xff;
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                i++;
                if (i == length || !qdtext(line[i]) && (line[i] & 0xff) != '"' && (line[i] & 0xff) != '\\') {
                    return -1;
                }
            } else if (!qdtext(line[i])) {
                return -1;
            }
        }
        return -1;
    }

    private static boolean qdtext(byte b) {
        int c = b & 0xff;
        return blank(b) || c == 0x21 || c >= 0x23 && c <= 0x5b || c >= 0x5d && c <= 0x7e || c >= 0x80;
    }

    private static boolean tchar(byte b) {
        int c = b & 0xff;
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
            || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static boolean blank(byte b) {
        return b == ' ' || b == '\t';
    }

    private static int hex(byte b) {
        return b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : b >= 'A' && b <= 'F'
            ? b - 'A' + 10 : -1;
    }
}
