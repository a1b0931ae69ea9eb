package dev.sluice.transport.demo;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.host.AdmissionRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's traffic: Poisson chat requests, agent sessions whose turns sometimes overlap (a client that does not
 * wait for the previous answer), a burst that overloads the fleet, and clients that give up early.
 */
final class DemoWorkload {
    /** One request to submit at {@code atNs}; {@code leavesAfterNs > 0} means the client disconnects then. */
    record Arrival(long atNs, AdmissionRequest request, int outputTokens, long leavesAfterNs) {
    }

    /** The workload's knobs. */
    record Shape(long durationNs, double chatPerSecond, int sessions, double burstFactor, long burstStartNs,
                 long burstEndNs, double leaveFraction, long seed) {
    }

    private DemoWorkload() {
    }

    static List<Arrival> generate(Shape shape) {
        SplittableRandom random = new SplittableRandom(shape.seed());
        List<Arrival> arrivals = new ArrayList<>();
        long t = 0;
        int n = 0;
        while (true) {
            double rate = shape.chatPerSecond() * (t >= shape.burstStartNs() && t < shape.burstEndNs()
                ? shape.burstFactor() : 1.0);
            t += (long) (-Math.log(1.0 - random.nextDouble()) / rate * 1e9);
            if (t >= shape.durationNs()) {
                break;
            }
            AdmissionRequest request = AdmissionRequest.builder("chat-" + n++)
                .inputTokens(200 + random.nextInt(1800)).build();
            long leaves = random.nextDouble() < shape.leaveFraction() ? 1_000_000_000L : 0;
            arrivals.add(new Arrival(t, request, 32 + random.nextInt(224), leaves));
        }
        for (int s = 0; s < shape.sessions(); s++) {
            long at = (long) (random.nextDouble() * 2e9);
            int turn = 0;
            while (at < shape.durationNs()) {
                SessionContext session = SessionContext.of("agent-" + s);
                AdmissionRequest request = AdmissionRequest.builder("agent-" + s + "-turn-" + turn++)
                    .inputTokens(600 + 300L * turn).sessionContext(session).policyClass("agent").build();
                arrivals.add(new Arrival(at, request, 64 + random.nextInt(64), 0));
                // Tool calls take 0.5-4 s; a quarter of the time the client sends the next turn early.
                at += random.nextDouble() < 0.25 ? 200_000_000L : 500_000_000L + (long) (random.nextDouble() * 3.5e9);
            }
        }
        arrivals.sort(Comparator.comparingLong(Arrival::atNs));
        return arrivals;
    }
}
