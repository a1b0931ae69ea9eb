package dev.sluice.transport.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One request the demo's client sends. Immutable.
 *
 * @param atNs        when to send it, from the start of the run.
 * @param requestId   sent as {@code x-request-id}; joins the client's outcome with the router's decisions.
 * @param policyClass sent as {@code x-dynamo-meta-policy-class}, or {@code null}.
 * @param sessionId   sent as {@code x-dynamo-session-id}, or {@code null}.
 * @param body        the chat-completions JSON body.
 * @param stream      true: SSE; false: one JSON response.
 * @param leaveAfter  the client disconnects after this many streamed chunks; 0: it reads to the end.
 */
record Call(long atNs, String requestId, String policyClass, String sessionId, byte[] body, boolean stream,
            int leaveAfter) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Call of(long atNs, String requestId, String policyClass, String sessionId, ObjectNode body,
                   boolean stream, int leaveAfter) {
        if (stream) {
            body.put("stream", true);
        }
        try {
            return new Call(atNs, requestId, policyClass, sessionId, JSON.writeValueAsBytes(body), stream,
                leaveAfter);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render a demo request", e);
        }
    }
}
