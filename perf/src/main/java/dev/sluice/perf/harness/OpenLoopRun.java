package dev.sluice.perf.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One open-loop trial: {@code generators} platform threads together offer {@code rate} requests per second at
 * constant spacing, each request stamped with its intended send time (so a stalled controller is charged for the
 * requests it held back: coordinated omission corrected). Generators wait for their next slot by yielding, so an
 * idle generator leaves the CPU to the controller on this small machine. Warm-up requests are sent but not recorded.
 * CPU is counted over the whole trial: the controller's own threads ({@link Target#ownThreadsCpuNs()}) and the time
 * each generator spends inside {@code submit} (one clock read per request more: the one that ended the wait is
 * reused).
 */
final class OpenLoopRun {
    private static final int SLOTS = 1 << 16;
    private static final long DRAIN_TIMEOUT = TimeUnit.SECONDS.toNanos(20);

    private OpenLoopRun() {
    }

    static TrialResult run(String targetName, long rate, int generators, double warmupSeconds,
                           double measureSeconds) throws InterruptedException {
        try (Target target = Target.create(targetName)) {
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            long recordFrom = start + (long) (warmupSeconds * 1e9);
            long recordUntil = recordFrom + (long) (measureSeconds * 1e9);
            LatencyProbe probe = new LatencyProbe(recordFrom, recordUntil);
            double period = 1e9 * generators / rate;
            long perGenerator = (long) ((recordUntil - start) / period);
            List<Thread> threads = new ArrayList<>();
            long[] callerNs = new long[generators];
            long cpuBefore = target.ownThreadsCpuNs();
            for (int g = 0; g < generators; g++) {
                long offset = (long) (g * 1e9 / rate);
                Pending[] slots = new Pending[SLOTS];
                for (int s = 0; s < SLOTS; s++) {
                    slots[s] = new Pending(probe, target.engine(), "g" + g + "-" + s);
                }
                int generator = g;
                Thread thread = new Thread(() -> callerNs[generator] = generate(target, slots, start + offset, period,
                    perGenerator), "generator-" + g);
                threads.add(thread);
            }
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join();
            }
            long expected = perGenerator * generators;
            long waitUntil = System.nanoTime() + DRAIN_TIMEOUT;
            while (probe.outcomes() < expected && System.nanoTime() < waitUntil) {
                Thread.sleep(1);
            }
            long cpu = target.ownThreadsCpuNs() - cpuBefore;
            long elapsed = Math.max(probe.lastDispatchAt(), recordUntil) - recordFrom;
            double achieved = probe.windowDispatched() * 1e9 / elapsed;
            return new TrialResult(targetName, rate, achieved, probe.windowDispatched(), probe.rejectedCount(),
                probe.outcomes() >= expected, probe.histogram().copy(), probe.outcomes(), cpu,
                Arrays.stream(callerNs).sum());
        }
    }

    /** Sends {@code count} requests; returns the time spent inside {@code submit}, ns. */
    private static long generate(Target target, Pending[] slots, long first, double period, long count) {
        long inSubmit = 0;
        for (long i = 0; i < count; i++) {
            long intended = first + (long) (i * period);
            long now;
            while ((now = System.nanoTime()) < intended) {
                Thread.yield();
            }
            Pending slot = slots[(int) (i & (SLOTS - 1))];
            slot.intended = intended;
            target.submit(slot);
            inSubmit += System.nanoTime() - now;
        }
        return inSubmit;
    }
}
