package dev.sluice.core.select;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The built-in selector's test of a rejection try ({@code keep < exp(-x)}), settled by series bounds where it can:
 * the same answer as the exp itself, for draws spread over every weight, far past the bounds' useful range, and on
 * the exp's value and its neighbours (where only the exp can tell).
 */
class SeriesBoundsTest {
    @Test
    void shouldKeepExactlyWhenTheExpWould() {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 1_000_000; i++) {
            double x = switch (i % 4) {
                case 0 -> random.nextDouble();
                case 1 -> random.nextDouble() * 4;
                case 2 -> random.nextDouble() * 1_000;
                default -> random.nextInt(0, 3) / 3.0;
            };
            double keep = random.nextDouble();
            assertEquals(keep < Math.exp(-x), DefaultWorkerSelector.kept(keep, x), "keep " + keep + ", x " + x);
            double weight = Math.exp(-x);
            for (double edge : new double[] {weight, Math.nextUp(weight), Math.nextDown(weight)}) {
                assertEquals(edge < weight, DefaultWorkerSelector.kept(edge, x), "keep " + edge + ", x " + x);
            }
        }
        assertEquals(true, DefaultWorkerSelector.kept(0.0, 0.0));
        assertEquals(false, DefaultWorkerSelector.kept(Math.nextDown(1.0), 1e300));
    }
}
