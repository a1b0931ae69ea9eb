package dev.sluice.transport.testing;

import java.util.SplittableRandom;

/** Prompt token arrays for tests. */
public final class Prompts {
    private Prompts() {
    }

    /** Tokens {@code from, from+1, ..., from+count-1}. */
    public static int[] range(int from, int count) {
        int[] tokens = new int[count];
        for (int i = 0; i < count; i++) {
            tokens[i] = from + i;
        }
        return tokens;
    }

    /** {@code count} tokens uniform in [0, 50000) from {@code random}. */
    public static int[] random(SplittableRandom random, int count) {
        int[] tokens = new int[count];
        for (int i = 0; i < count; i++) {
            tokens[i] = random.nextInt(50_000);
        }
        return tokens;
    }
}
