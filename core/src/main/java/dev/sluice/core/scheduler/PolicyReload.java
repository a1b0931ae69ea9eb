package dev.sluice.core.scheduler;

import dev.sluice.core.config.PolicyProfile;
import java.util.Objects;

/**
 * A validated router policy for one model's scheduler to take over between two duty cycles: sent over the ingress
 * ring by {@code ModelRouter.reloadPolicy}, applied by the scheduler thread alone ({@link PolicySwap}). Immutable.
 *
 * @param source     where it was read from, for the journal and logs.
 * @param policyText the YAML exactly as read (journaled, so a replay can rebuild the profile).
 * @param profile    the model's profile in it.
 * @param classifier the new classifier instance behind its host when the {@code request_classifier} section
 *                   changed, or {@code null} to keep the current one.
 */
public record PolicyReload(String source, String policyText, PolicyProfile profile, ClassifierHost classifier) {
    public PolicyReload {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policyText, "policyText");
        Objects.requireNonNull(profile, "profile");
    }
}
