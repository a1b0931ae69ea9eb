package dev.sluice.plugins.thunderagent;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.ProviderException;

/**
 * The validated settings of a ThunderAgent classifier, from its fourteen optional YAML parameters. {@code mode} picks
 * the defaults: {@code dynamo} (Dynamo's port: pause above 0.95 down to 0.80, resume up to 0.85, acting programs
 * charged in full when deciding pauses) or {@code paper} (the ThunderAgent paper: high and low watermarks at 1.0, no
 * hysteresis, acting programs charged {@code 2^(-idle/tau)} of their tokens when deciding pauses); a parameter
 * given explicitly overrides the mode's default. Both modes pack and mark as Dynamo does ({@code resume_packing:
 * prefix}, {@code pause_marking: all}); {@code first_fit} and {@code enough} are this port's alternatives.
 * Immutable.
 *
 * @param pauseThreshold         worker usage fraction above which programs are paused.
 * @param pauseTarget            usage fraction a pause cycle drains down to.
 * @param resumeHysteresis       normal resume fills only up to {@code pauseThreshold - resumeHysteresis}.
 * @param resumeTimeoutNs        longest deferral before a paused program is forced back in.
 * @param sessionRetentionNs     how long an idle (acting) program is remembered.
 * @param schedulerIntervalNs    the reconcile cadence.
 * @param actingTokenWeight      weight of a program's tokens while it is acting (between turns).
 * @param actingDecayTauSeconds  half-life of acting usage, used only to place forced resumes.
 * @param bufferPerProgram       headroom tokens charged per active program.
 * @param maxTrackedRequests     bound of tracked requests and, separately, of retained programs.
 * @param decayInPauses          whether pause decisions charge acting programs their decayed usage (paper mode).
 * @param sharedPrefixBudget     whether a rank's usage is credited the tokens its reasoning programs count beyond the
 *                               KV the router sees in use there (a shared prefix is then charged once).
 * @param resumeFirstFit         {@code resume_packing: first_fit}: greedy resume takes every paused program, in
 *                               priority order, that still fits, instead of stopping at the first that does not.
 * @param markEnough             {@code pause_marking: enough}: when pausing acting programs is not enough, mark
 *                               reasoning programs largest first only until the target is reached, not all.
 */
record ThunderAgentConfig(double pauseThreshold, double pauseTarget, double resumeHysteresis, long resumeTimeoutNs,
                          long sessionRetentionNs, long schedulerIntervalNs, double actingTokenWeight,
                          double actingDecayTauSeconds, long bufferPerProgram, int maxTrackedRequests,
                          boolean decayInPauses, boolean sharedPrefixBudget, boolean resumeFirstFit,
                          boolean markEnough) {

    /** The YAML parameters as written; an absent key binds as {@code null} and takes its default. */
    record Parameters(@JsonProperty("pause_threshold") Double pauseThreshold,
                      @JsonProperty("pause_target") Double pauseTarget,
                      @JsonProperty("resume_hysteresis") Double resumeHysteresis,
                      @JsonProperty("resume_timeout_seconds") Double resumeTimeoutSeconds,
                      @JsonProperty("session_retention_seconds") Double sessionRetentionSeconds,
                      @JsonProperty("scheduler_interval_seconds") Double schedulerIntervalSeconds,
                      @JsonProperty("acting_token_weight") Double actingTokenWeight,
                      @JsonProperty("acting_decay_tau_seconds") Double actingDecayTauSeconds,
                      @JsonProperty("buffer_per_program") Long bufferPerProgram,
                      @JsonProperty("max_tracked_requests") Integer maxTrackedRequests,
                      @JsonProperty("mode") String mode,
                      @JsonProperty("shared_prefix_budget") Object sharedPrefixBudget,
                      @JsonProperty("resume_packing") String resumePacking,
                      @JsonProperty("pause_marking") String pauseMarking) {
    }

    /** The defaults of every parameter. */
    static ThunderAgentConfig defaults() {
        return new ThunderAgentConfig(0.95, 0.80, 0.10, seconds(1800), seconds(1800), seconds(5), 1.0, 1.0, 100,
            10_000, false, false, false, false);
    }

    /** The paper's defaults: watermarks at 1.0, no hysteresis, decayed acting usage in pause decisions. */
    static ThunderAgentConfig paperDefaults() {
        ThunderAgentConfig d = defaults();
        return new ThunderAgentConfig(1.0, 1.0, 0.0, d.resumeTimeoutNs, d.sessionRetentionNs, d.schedulerIntervalNs,
            d.actingTokenWeight, d.actingDecayTauSeconds, d.bufferPerProgram, d.maxTrackedRequests, true,
            d.sharedPrefixBudget, d.resumeFirstFit, d.markEnough);
    }

    /** Applies defaults and validates; the message reads {@code invalid ThunderAgent configuration: <reason>}. */
    static ThunderAgentConfig from(Parameters p) throws ProviderException {
        ThunderAgentConfig d = switch (p.mode() == null ? "dynamo" : p.mode()) {
            case "dynamo" -> defaults();
            case "paper" -> paperDefaults();
            default -> throw invalid("mode must be dynamo or paper, was " + p.mode());
        };
        double threshold = or(p.pauseThreshold(), d.pauseThreshold);
        double target = or(p.pauseTarget(), d.pauseTarget);
        double hysteresis = or(p.resumeHysteresis(), d.resumeHysteresis);
        fraction("pause_threshold", threshold);
        fraction("pause_target", target);
        fraction("resume_hysteresis", hysteresis);
        if (target > threshold) {
            throw invalid("pause_target must not exceed pause_threshold");
        }
        if (hysteresis > threshold) {
            throw invalid("resume_hysteresis must not exceed pause_threshold");
        }
        long timeout = duration("resume_timeout_seconds", p.resumeTimeoutSeconds(), d.resumeTimeoutNs);
        long retention = duration("session_retention_seconds", p.sessionRetentionSeconds(), d.sessionRetentionNs);
        long interval = duration("scheduler_interval_seconds", p.schedulerIntervalSeconds(), d.schedulerIntervalNs);
        double weight = positive("acting_token_weight", or(p.actingTokenWeight(), d.actingTokenWeight));
        double tau = positive("acting_decay_tau_seconds", or(p.actingDecayTauSeconds(), d.actingDecayTauSeconds));
        long buffer = p.bufferPerProgram() == null ? d.bufferPerProgram : p.bufferPerProgram();
        if (buffer < 0) {
            throw invalid("buffer_per_program must not be negative");
        }
        int maxTracked = p.maxTrackedRequests() == null ? d.maxTrackedRequests : p.maxTrackedRequests();
        if (maxTracked <= 0) {
            throw invalid("max_tracked_requests must be positive");
        }
        return new ThunderAgentConfig(threshold, target, hysteresis, timeout, retention, interval, weight, tau,
            buffer, maxTracked, d.decayInPauses, flag("shared_prefix_budget", p.sharedPrefixBudget(),
            d.sharedPrefixBudget), choice("resume_packing", p.resumePacking(), "prefix", "first_fit",
            d.resumeFirstFit), choice("pause_marking", p.pauseMarking(), "all", "enough", d.markEnough));
    }

    /** One of two words: false for {@code off}, true for {@code on}, the fallback when absent. */
    private static boolean choice(String name, String value, String off, String on, boolean fallback)
        throws ProviderException {
        if (value == null) {
            return fallback;
        }
        if (value.equals(off) || value.equals(on)) {
            return value.equals(on);
        }
        throw invalid(name + " must be " + off + " or " + on + ", was " + value);
    }

    private static void fraction(String name, double value) throws ProviderException {
        if (!Double.isFinite(value) || value < 0 || value > 1) {
            throw invalid(name + " must be in [0, 1]");
        }
    }

    private static double positive(String name, double value) throws ProviderException {
        if (!Double.isFinite(value) || value <= 0) {
            throw invalid(name + " must be finite and positive");
        }
        return value;
    }

    private static long duration(String name, Double seconds, long fallbackNs) throws ProviderException {
        if (seconds == null) {
            return fallbackNs;
        }
        // A sub-nanosecond or overflowing duration is as useless as a non-positive one.
        if (!Double.isFinite(seconds) || seconds <= 0 || seconds * 1e9 < 1 || seconds * 1e9 >= Long.MAX_VALUE) {
            throw invalid(name + " must be positive");
        }
        return Math.round(seconds * 1e9);
    }

    /** A YAML boolean, bound untyped so that {@code yes}, {@code 1} or {@code "true"} get an error naming the key. */
    private static boolean flag(String name, Object value, boolean fallback) throws ProviderException {
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Boolean b)) {
            throw invalid(name + " must be true or false, was " + value);
        }
        return b;
    }

    private static double or(Double value, double fallback) {
        return value == null ? fallback : value;
    }

    private static long seconds(long s) {
        return s * 1_000_000_000L;
    }

    private static ProviderException invalid(String reason) {
        return new ProviderException("invalid ThunderAgent configuration: " + reason);
    }
}
