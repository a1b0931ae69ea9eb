package dev.sluice.transport.simulation;

import dev.sluice.core.router.ModelRouter;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Something done to the simulation's router at an instant of the virtual clock, on the simulation thread (between
 * two of its duty cycles): a policy reload, say. The action may step the router itself ({@link ModelRouter#doWork}).
 * Immutable.
 *
 * @param atNs   when, on the virtual clock.
 * @param action what is done to the router.
 */
public record RouterAction(long atNs, Consumer<ModelRouter> action) {
    public RouterAction {
        Objects.requireNonNull(action, "action");
        if (atNs < 0) {
            throw new IllegalArgumentException("atNs must be >= 0, was " + atNs);
        }
    }
}
