package dev.sluice.transport.simulation;

import dev.sluice.core.host.AdmissionRequest;
import java.util.Objects;

/**
 * One request sent at a fixed instant whatever else happens (open loop, unlike a {@link SessionPlan}'s turns, which
 * wait for the previous answer): the request as the router receives it, the prompt the engine prefills, the answer's
 * length and when the client leaves. Build the request's block hashes from {@code prompt} with the simulation's
 * block size ({@link AdmissionRequest.Builder#promptTokens}). Immutable (the prompt array is never changed).
 *
 * @param atNs          when it arrives, on the virtual clock.
 * @param request       the request: id, headers, size and prompt block hashes.
 * @param prompt        the prompt's tokens.
 * @param maxTokens     the answer's length (the simulated engine generates exactly this many).
 * @param leavesAfterNs the client disconnects this long after arriving, wherever the request is then (0: never).
 */
public record Arrival(long atNs, AdmissionRequest request, int[] prompt, int maxTokens, long leavesAfterNs) {
    public Arrival {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(prompt, "prompt");
        if (maxTokens < 1 || leavesAfterNs < 0) {
            throw new IllegalArgumentException("maxTokens must be >= 1 and leavesAfterNs >= 0, were " + maxTokens
                + " and " + leavesAfterNs);
        }
    }
}
