package dev.sluice.core.host;

import dev.sluice.core.config.PolicyProfile;
import java.util.Objects;

/**
 * A router-policy reload as the scheduler applied it, between two duty cycles: the new policy's text and profile,
 * whether the classifier was re-created, and what became of the queued requests. Immutable.
 *
 * @param source             where the policy was read from (a path).
 * @param policyText         the policy YAML exactly as read.
 * @param profile            the profile the router queues by from now on.
 * @param classifierReplaced true when the {@code request_classifier} section changed and a new classifier took over
 *                           the requests that arrive from now on.
 * @param requeued           queued requests moved into the new profile's classes.
 * @param reassigned         of those, the ones whose class is gone from the new profile (they went to their
 *                           family's class, else to the default family's).
 */
public record PolicyChange(String source, String policyText, PolicyProfile profile, boolean classifierReplaced,
                           int requeued, int reassigned) {
    public PolicyChange {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policyText, "policyText");
        Objects.requireNonNull(profile, "profile");
    }
}
