package dev.sluice.core.journal;

import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.router.RouterContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a journal records once per start, before any other record: the router's settings and the policy
 * configuration text in force, so that a replay can rebuild the same router and an auditor can tell which policy
 * decided. Immutable.
 *
 * @param model             the model the router serves.
 * @param policySource      where the policy came from (a path, or a bundled name).
 * @param policyText        the policy YAML exactly as loaded ({@code ""} when there is none).
 * @param classifier        what classified: the policy's {@code request_classifier} type, or a built-in's name.
 * @param overloadStatus    the status capacity rejections answer.
 * @param maxLiveRequests   the router's live-lifecycle limit.
 * @param maxDeferrals      the router's limit on running continuations.
 * @param blockSize         tokens per KV block.
 * @param fallbackThreshold {@code --router-queue-threshold} for a model without a profile; NaN when unset.
 * @param fallbackPolicy    {@code --router-queue-policy} for a model without a profile.
 * @param schedulerNs       the router's clock when the journal opened: ties scheduler times to the wall clock.
 */
public record JournalHeader(String model, String policySource, String policyText, String classifier,
                            int overloadStatus, int maxLiveRequests, int maxDeferrals, int blockSize,
                            double fallbackThreshold, QueuePolicy fallbackPolicy, long schedulerNs) {
    /** The version of the binary layout this build writes (see {@code FORMAT.md}). */
    public static final int FORMAT_VERSION = 1;

    public JournalHeader {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(policySource, "policySource");
        Objects.requireNonNull(policyText, "policyText");
        Objects.requireNonNull(classifier, "classifier");
        Objects.requireNonNull(fallbackPolicy, "fallbackPolicy");
    }

    /** The header of a router built from {@code context}, queueing by the given policy file. */
    public static JournalHeader of(RouterContext context, String policySource, String policyText, String classifier,
                                   OptionalDouble fallbackThreshold, QueuePolicy fallbackPolicy) {
        return new JournalHeader(context.model(), policySource, policyText, classifier, context.overloadStatus(),
            context.maxLiveRequests(), context.maxDeferrals(), context.blockSize(),
            fallbackThreshold.orElse(Double.NaN), fallbackPolicy, context.clock().nanoTime());
    }

    /** The fallback threshold as an optional. */
    public OptionalDouble fallbackThresholdOption() {
        return Double.isNaN(fallbackThreshold) ? OptionalDouble.empty() : OptionalDouble.of(fallbackThreshold);
    }

    /** SHA-256 of the policy text's UTF-8 bytes. */
    public byte[] fingerprint() {
        return sha256(policyText);
    }

    /** SHA-256 of {@code text}'s UTF-8 bytes. */
    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Lower-case hex, as {@code sha256sum} prints it. */
    public static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}
