package dev.sluice.transport.frontend;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.journal.JournalContext;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Where the frontend journals and what its header records.
 *
 * @param context           the journal's directory and policies.
 * @param policySource      where the policy came from (a path, or the bundled demo policy).
 * @param policyText        the policy file's text, recorded with its fingerprint.
 * @param classifier        the classifier type in force.
 * @param fallbackThreshold {@code --router-queue-threshold}.
 * @param fallbackPolicy    {@code --router-queue-policy}.
 */
public record JournalSetup(JournalContext context, String policySource, String policyText, String classifier,
                           OptionalDouble fallbackThreshold, QueuePolicy fallbackPolicy) {
    public JournalSetup {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(policySource, "policySource");
        Objects.requireNonNull(policyText, "policyText");
        Objects.requireNonNull(classifier, "classifier");
        Objects.requireNonNull(fallbackThreshold, "fallbackThreshold");
        Objects.requireNonNull(fallbackPolicy, "fallbackPolicy");
    }
}
