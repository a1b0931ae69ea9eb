package dev.sluice.transport.engine.http;

import java.io.IOException;

/**
 * An engine's answer that is not the HTTP/1.1 it should be: a malformed status line, header or chunk size, a head
 * over the limit. Its message says what was wrong without quoting the engine's bytes or naming its address, so it
 * may be passed on to a client.
 */
final class UpstreamProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    UpstreamProtocolException(String message) {
        super(message);
    }
}
