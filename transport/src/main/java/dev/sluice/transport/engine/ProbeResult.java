package dev.sluice.transport.engine;

import java.util.Objects;

/**
 * What an engine's health probe found ({@link Engine#probe}). Immutable.
 *
 * @param reachable true when the engine answered as a healthy server does.
 * @param reason    why not, for operators' logs ({@code null} when reachable); never holds the engine's answer body.
 */
public record ProbeResult(boolean reachable, String reason) {
    /** The engine answered. */
    public static final ProbeResult REACHABLE = new ProbeResult(true, null);

    public ProbeResult {
        if (!reachable) {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The engine did not answer, or not as it should, for this reason. */
    public static ProbeResult unreachable(String reason) {
        return new ProbeResult(false, reason);
    }
}
