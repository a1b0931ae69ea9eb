package dev.sluice.core.api;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Router-wide information handed to a worker-selector factory: the model, the KV block size of the router's hash
 * domain, and the random source to sample with (seeded by the router so that runs and tests are reproducible; it
 * is used only on the scheduler thread, so an unsynchronized generator such as {@link java.util.SplittableRandom}
 * is fine).
 */
public final class WorkerSelectorContext {
    private final String model;
    private final int blockSize;
    private final RandomGenerator random;

    public WorkerSelectorContext(String model, int blockSize, RandomGenerator random) {
        this.model = Objects.requireNonNull(model, "model");
        if (blockSize <= 0) {
            throw new IllegalArgumentException("blockSize must be > 0, was " + blockSize);
        }
        this.blockSize = blockSize;
        this.random = Objects.requireNonNull(random, "random");
    }

    public String model() {
        return model;
    }

    /** Tokens per KV block. */
    public int blockSize() {
        return blockSize;
    }

    /** The router's random source for this selector; call it from the scheduler thread only. */
    public RandomGenerator random() {
        return random;
    }

    @Override
    public String toString() {
        return "WorkerSelectorContext[model=" + model + ", blockSize=" + blockSize + "]";
    }
}
