package dev.sluice.core.config;

/** How requests are ordered inside a policy class, after strict priority and deadline. */
public enum QueuePolicy {
    /** First come, first served; {@code priority_jump} seconds move a request forward. */
    FCFS,
    /** Weighted shortest processing time: {@code (1 + priority_jump) / scheduling_cost_tokens}, highest first. */
    WSPT;

    /** The YAML spelling. */
    public String yamlName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
