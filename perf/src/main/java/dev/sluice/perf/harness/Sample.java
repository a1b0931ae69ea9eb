package dev.sluice.perf.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A settled memory and thread sample: heap used after repeated {@code System.gc()} (until it stops shrinking),
 * the process RSS from {@code /proc/self/status} (0 where there is none), and live platform threads
 * ({@code ThreadMXBean} does not count virtual threads).
 */
record Sample(long heapUsed, long rss, int platformThreads) {
    static Sample take() throws InterruptedException {
        long previous = Long.MAX_VALUE;
        long used = heap();
        for (int i = 0; i < 10 && used < previous; i++) {
            previous = used;
            System.gc();
            Thread.sleep(50);
            used = heap();
        }
        return new Sample(used, readRss(), ManagementFactory.getThreadMXBean().getThreadCount());
    }

    private static long heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long readRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
