package dev.sluice.transport.engine.sim;

import dev.sluice.transport.engine.ErrorKind;
import dev.sluice.transport.engine.FinishReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a request's listener on the engine thread. A listener that throws is a client that went away: the failure
 * is logged and the caller frees the request; it must never stop the engine.
 */
final class EngineCallbacks {
    private static final Logger LOG = LoggerFactory.getLogger(EngineCallbacks.class);

    private EngineCallbacks() {
    }

    /** Returns false if the listener threw. */
    static boolean token(SimRequest r, int tokenId) {
        try {
            r.listener.onToken(tokenId);
            r.delivered++;
            return true;
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onToken; freeing the request", r.request.requestId(), e);
            return false;
        }
    }

    static void finished(SimRequest r, FinishReason reason) {
        try {
            r.listener.onFinished(reason, r.request.promptTokens().length, r.delivered);
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onFinished", r.request.requestId(), e);
        }
    }

    static void error(SimRequest r, String message) {
        try {
            r.listener.onError(message);
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onError", r.request.requestId(), e);
        }
    }

    /** A failure of a known kind, such as a request the engine can never run ({@link ErrorKind#REJECTED}). */
    static void error(SimRequest r, ErrorKind kind, String message) {
        try {
            r.listener.onError(kind, message);
        } catch (RuntimeException e) {
            LOG.warn("listener of {} failed in onError", r.request.requestId(), e);
        }
    }
}
