package dev.sluice.transport.frontend;

import dev.sluice.core.spi.WorkerSelector;
import dev.sluice.core.spi.WorkerSelectorFactory;
import java.util.Locale;

/**
 * {@code --router-mode}: {@code kv} uses the configured (by default KV-cache-aware) selector; {@code round-robin}
 * and {@code random} ignore caches and load, as Dynamo's modes of the same names do. Hard pins and soft targets
 * still apply to every mode.
 */
public enum RouterModes {
    KV,
    ROUND_ROBIN,
    RANDOM;

    /** The mode named as on the command line ({@code kv}, {@code round-robin}, {@code random}). */
    public static RouterModes parse(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "kv" -> KV;
            case "round-robin", "round_robin", "roundrobin" -> ROUND_ROBIN;
            case "random" -> RANDOM;
            default -> throw new IllegalArgumentException("--router-mode must be kv, round-robin or random, was "
                + name);
        };
    }

    /** The selector of this mode; {@code kv} returns {@code configured}. */
    public WorkerSelectorFactory selector(WorkerSelectorFactory configured) {
        return switch (this) {
            case KV -> configured;
            case ROUND_ROBIN -> context -> new WorkerSelector() {
                private int next;

                @Override
                public int select(dev.sluice.core.api.SelectionInputs inputs) {
                    int target = inputs.indexOf(inputs.softTarget());
                    return target >= 0 ? target : Math.floorMod(next++, inputs.candidateCount());
                }
            };
            case RANDOM -> context -> inputs -> {
                int target = inputs.indexOf(inputs.softTarget());
                return target >= 0 ? target : context.random().nextInt(inputs.candidateCount());
            };
        };
    }
}
