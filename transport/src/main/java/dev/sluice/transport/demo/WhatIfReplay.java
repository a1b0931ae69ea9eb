package dev.sluice.transport.demo;

import dev.sluice.core.audit.JournalRun;
import dev.sluice.core.audit.Lifecycle;
import dev.sluice.core.journal.JournalRecord;
import dev.sluice.core.kv.BlockHasher;
import dev.sluice.core.replay.Arrivals;
import dev.sluice.transport.simulation.Arrival;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * What another configuration would have done to recorded traffic: the recorded arrivals (ingress times, headers,
 * sizes, answer lengths, clients that left) on the demo's simulated fleet sized as recorded, under both
 * configurations on a virtual clock, printed side by side per class. The recorded prompts' tokens are gone; each
 * stands in as tokens drawn from its recorded block hashes, so prompts that shared a prefix share it again.
 * Single-threaded.
 */
public final class WhatIfReplay {
    /** Answer length assumed when the engine reported no context tokens. */
    private static final int DEFAULT_OUTPUT_TOKENS = 128;

    private WhatIfReplay() {
    }

    /** The run's arrivals, relative to its start, with prompts hashed in blocks of the demo's engines. */
    public static List<Arrival> arrivals(JournalRun run) {
        int engineBlock = DemoFleet.engine().blockSize();
        int recordedBlock = run.header() != null ? run.header().blockSize() : engineBlock;
        BlockHasher hasher = new BlockHasher(engineBlock);
        List<Arrival> arrivals = new ArrayList<>();
        long start = run.startNs();
        for (Lifecycle lifecycle : run.lifecycles().values()) {
            JournalRecord.Arrived arrived = lifecycle.first(JournalRecord.Arrived.class);
            if (arrived == null) {
                continue;
            }
            JournalRecord.Request r = arrived.request();
            JournalRecord.Completed completed = lifecycle.first(JournalRecord.Completed.class);
            int output = completed != null && completed.contextTokens() > r.inputTokens()
                ? (int) (completed.contextTokens() - r.inputTokens()) : DEFAULT_OUTPUT_TOKENS;
            JournalRecord.Aborted aborted = lifecycle.first(JournalRecord.Aborted.class);
            long leaves = aborted != null && aborted.causeType() != null && aborted.causeType().endsWith(
                "CancellationException") ? Math.max(1, aborted.timeNs() - r.ingressAt()) : 0;
            int[] prompt = prompt(arrived, recordedBlock);
            arrivals.add(new Arrival(Math.max(0, r.ingressAt() - start),
                Arrivals.builder(r).promptTokens(prompt, hasher).build(), prompt, output, leaves));
        }
        arrivals.sort(Comparator.comparingLong(Arrival::atNs));
        return arrivals;
    }

    /**
     * A stand-in for a recorded prompt of {@code inputTokens} tokens: each complete block the recording hashed
     * becomes {@code blockSize} tokens drawn from its hash, the rest tokens of this request's own.
     */
    private static int[] prompt(JournalRecord.Arrived arrived, int blockSize) {
        int[] prompt = new int[(int) Math.max(1, Math.min(Integer.MAX_VALUE, arrived.request().inputTokens()))];
        int at = 0;
        for (long hash : arrived.promptBlockHashes()) {
            if (at + blockSize > prompt.length) {
                break;
            }
            System.arraycopy(new WorkloadRandom(hash).tokens(blockSize), 0, prompt, at, blockSize);
            at += blockSize;
        }
        int[] rest = new WorkloadRandom(arrived.lifecycleId() * 31 + arrived.request().ingressAt())
            .tokens(prompt.length - at);
        System.arraycopy(rest, 0, prompt, at, rest.length);
        return prompt;
    }

    /** The recorded fleet: as many workers as joined, with the first one's max_num_batched_tokens. */
    public static WhatIfFleet.Fleet fleet(JournalRun run) {
        Set<Long> workers = new TreeSet<>();
        long maxBatched = 2048;
        for (JournalRecord record : run.records()) {
            if (record instanceof JournalRecord.WorkerJoined w) {
                if (workers.isEmpty()) {
                    maxBatched = w.maxNumBatchedTokens();
                }
                workers.add(w.worker().workerId());
            }
        }
        return new WhatIfFleet.Fleet(Math.max(1, workers.size()), maxBatched);
    }

    /** Prints both results side by side, per class: {@code recorded → other}. */
    public static void print(WhatIfFleet.Result a, WhatIfFleet.Result b, String nameA, String nameB,
                             PrintWriter out) {
        out.printf("per class: %s → %s (both simulated on the same fleet and arrivals)%n", nameA, nameB);
        out.printf("  %-20s %9s %15s %15s %17s %17s %17s %17s%n", "class", "arrived", "admitted", "rejected",
            "wait p50 ms", "wait p99 ms", "TTFT p50 ms", "TTFT p99 ms");
        Set<String> classes = new LinkedHashSet<>(a.classes().keySet());
        classes.addAll(b.classes().keySet());
        for (String name : classes) {
            WhatIfFleet.ClassResult x = a.classes().get(name);
            WhatIfFleet.ClassResult y = b.classes().get(name);
            out.printf("  %-20s %9s %15s %15s %17s %17s %17s %17s%n", name,
                pair(x == null ? null : x.arrived(), y == null ? null : y.arrived()),
                pair(x == null ? null : x.dispatched(), y == null ? null : y.dispatched()),
                pair(x == null ? null : x.rejected(), y == null ? null : y.rejected()),
                pair(p(x == null ? null : x.queueWaitMs(), 50), p(y == null ? null : y.queueWaitMs(), 50)),
                pair(p(x == null ? null : x.queueWaitMs(), 99), p(y == null ? null : y.queueWaitMs(), 99)),
                pair(p(x == null ? null : x.ttftMs(), 50), p(y == null ? null : y.ttftMs(), 50)),
                pair(p(x == null ? null : x.ttftMs(), 99), p(y == null ? null : y.ttftMs(), 99)));
        }
        out.println("  rejection reasons (status):");
        Set<String> reasons = new TreeSet<>(a.rejections().keySet());
        reasons.addAll(b.rejections().keySet());
        for (String reason : reasons) {
            out.printf("    %-36s %s%n", reason, pair(a.rejections().getOrDefault(reason, 0L),
                b.rejections().getOrDefault(reason, 0L)));
        }
        out.flush();
    }

    private static Long p(Histogram h, double percentile) {
        return h == null || h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile);
    }

    private static String pair(Long x, Long y) {
        String left = x == null ? "-" : x.toString();
        String right = y == null ? "-" : y.toString();
        return left.equals(right) ? left : left + " → " + right;
    }
}
