package dev.sluice.plugins.thunderagent;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sluice.core.api.ProviderException;

/**
 * The validated settings of a ThunderAgent classifier, from its eleven optional YAML parameters. {@code mode} picks
 * the defaults: {@code dynamo} (Dynamo's port: pause above 0.95 down to 0.80, resume up to 0.85, acting programs
 * charged in full when deciding pauses) or {@code paper} (the ThunderAgent paper: high and low watermarks at 1.0, no
 * hysteresis, acting programs charged {@code 2^(-idle/tau)} of their tokens when deciding pauses); a parameter
 * given explicitly overrides the mode's default. Immutable.
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
 */
record ThunderAgentConfig(double pauseThreshold, double pauseTarget, double resumeHysteresis, long resumeTimeoutNs,
                          long sessionRetentionNs, long schedulerIntervalNs, double actingTokenWeight,
                          double actingDecayTauSeconds, long bufferPerProgram, int maxTrackedRequests,
                          boolean decayInPauses) {

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
                      @JsonProperty("mode") String mode) {
    }

    /** The defaults of every parameter. */
    static ThunderAgentConfig defaults() {
        return new ThunderAgentConfig(0.95, 0.80, 0.10, seconds(1800), seconds(1800), seconds(5), 1.0, 1.0, 100,
            10_000, false);
    }

    /** The paper's defaults: watermarks at 1.0, no hysteresis, decayed acting usage in pause decisions. */
    static ThunderAgentConfig paperDefaults() {
        ThunderAgentConfig d = defaults();
        return new ThunderAgentConfig(1.0, 1.0, 0.0, d.resumeTimeoutNs, d.sessionRetentionNs, d.schedulerIntervalNs,
            d.actingTokenWeight, d.actingDecayTauSeconds, d.bufferPerProgram, d.maxTrackedRequests, true);
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
            buffer, maxTracked, d.decayInPauses);
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
