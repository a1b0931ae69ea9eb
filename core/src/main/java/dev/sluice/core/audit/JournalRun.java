package dev.sluice.core.audit;

import dev.sluice.core.config.ConfigException;
import dev.sluice.core.config.PolicyClassSpec;
import dev.sluice.core.config.RouterPolicyConfig;
import dev.sluice.core.config.RouterPolicyLoader;
import dev.sluice.core.journal.JournalCorruptException;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalReader;
import dev.sluice.core.journal.JournalRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One start of a router as its journal recorded it: the header, then every record up to the next header, with
 * the records grouped by lifecycle in arrival order. Lifecycle ids are unique within a run only. Cold path.
 *
 * @param index      1 for the first run of the directory.
 * @param header     the run's header ({@code null} if the journal's first cycles were deleted by retention).
 * @param records    every record after the header, in order.
 * @param lifecycles by lifecycle id, in order of first appearance.
 * @param classNames policy class names by class index, as the run's enqueues before any policy reload recorded
 *                   them; {@link #className} adds the others it is asked for (cold path, single-threaded).
 * @param reloads    the run's policy reloads, in order: class indices after one are its profile's.
 * @param reloadedClassNames the names {@link #className(int, long)} looked up in a reloaded policy, by reload and
 *                   index (a cache).
 */
public record JournalRun(int index, JournalRecord.Header header, List<JournalRecord> records,
                         Map<Long, Lifecycle> lifecycles, Map<Integer, String> classNames,
                         List<JournalRecord.PolicyReloaded> reloads, Map<Long, String> reloadedClassNames) {

    /**
     * Reads every run in {@code directory}; {@code undecodable[0]} receives the count of records skipped because
     * their type is unknown (a newer writer's).
     *
     * @throws JournalCorruptException when the journal is damaged (records skipped as corrupt, or reading stopped
     *                                 before the last record the files account for); its {@code partial()} is the
     *                                 list of runs that could be read.
     */
    public static List<JournalRun> read(Path directory, long[] undecodable) throws JournalException {
        try (JournalReader reader = JournalReader.open(directory)) {
            List<JournalRun> runs = new ArrayList<>();
            List<JournalRecord> current = new ArrayList<>();
            JournalRecord.Header[] header = {null};
            reader.forEach(record -> {
                if (record instanceof JournalRecord.Header h) {
                    if (header[0] != null || !current.isEmpty()) {
                        runs.add(of(runs.size() + 1, header[0], List.copyOf(current)));
                    }
                    header[0] = h;
                    current.clear();
                } else {
                    current.add(record);
                }
            });
            if (header[0] != null || !current.isEmpty()) {
                runs.add(of(runs.size() + 1, header[0], List.copyOf(current)));
            }
            if (undecodable != null) {
                undecodable[0] = reader.undecodable();
            }
            if (!reader.corruptions().isEmpty()) {
                throw new JournalCorruptException(directory.toAbsolutePath().toString(), reader.corruptions(),
                    List.copyOf(runs));
            }
            return runs;
        }
    }

    /** A run from records already read (tests, tools). */
    public static JournalRun of(int index, JournalRecord.Header header, List<JournalRecord> records) {
        Map<Long, Lifecycle> lifecycles = new LinkedHashMap<>();
        Map<Integer, String> classNames = new HashMap<>();
        List<JournalRecord.PolicyReloaded> reloads = new ArrayList<>();
        for (JournalRecord record : records) {
            if (record instanceof JournalRecord.PolicyReloaded p) {
                reloads.add(p);
            } else if (record instanceof JournalRecord.Enqueued e && reloads.isEmpty()) {
                classNames.putIfAbsent(e.classIndex(), e.policyClass());
            }
            long id = record.lifecycleId();
            if (id >= 0) {
                lifecycles.computeIfAbsent(id, Lifecycle::new).add(record);
            }
        }
        return new JournalRun(index, header, records, lifecycles, classNames, List.copyOf(reloads), new HashMap<>());
    }

    /**
     * The name of the policy class at {@code classIndex} of the profile in force at {@code atNs}: the run's first
     * policy ({@link #className(int)}) before any reload, else the policy the last reload before {@code atNs}
     * recorded.
     */
    public String className(int classIndex, long atNs) {
        int generation = 0;
        while (generation < reloads.size() && reloads.get(generation).timeNs() < atNs) {
            generation++;
        }
        if (generation == 0) {
            return className(classIndex);
        }
        JournalRecord.PolicyReloaded reload = reloads.get(generation - 1);
        return reloadedClassNames.computeIfAbsent(((long) generation << 32) | classIndex,
            key -> policyClassName(reload.policyText(), reload.policySource(), classIndex));
    }

    /**
     * The name of the policy class at {@code classIndex} of this run's profile: as an enqueue of the run recorded it,
     * else from the recorded policy text, else {@code class #N} (no header, or a policy this build cannot read).
     */
    public String className(int classIndex) {
        return classNames.computeIfAbsent(classIndex, this::recordedPolicyClassName);
    }

    private String recordedPolicyClassName(int classIndex) {
        return header == null ? "class #" + classIndex
            : policyClassName(header.policyText(), header.policySource(), classIndex);
    }

    private String policyClassName(String policyText, String policySource, int classIndex) {
        if (header != null) {
            try {
                List<PolicyClassSpec> classes = (policyText.isEmpty() ? RouterPolicyConfig.none()
                    : RouterPolicyLoader.parse(policyText, policySource))
                    .profileFor(header.model(), header.fallbackThresholdOption(), header.fallbackPolicy()).classes();
                if (classIndex < classes.size()) {
                    return classes.get(classIndex).name();
                }
            } catch (ConfigException e) {
                // An unreadable policy names no class; the index still tells classes apart.
            }
        }
        return "class #" + classIndex;
    }

    /** The wall-clock instant of a scheduler time of this run (scheduler time as nanoseconds when unknown). */
    public Instant wallClock(long schedulerNs) {
        long base = header == null ? 0 : header.wallClockNs() - header.timeNs();
        long nanos = base + schedulerNs;
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    /** The scheduler time of a wall-clock instant of this run. */
    public long schedulerTime(Instant instant) {
        long base = header == null ? 0 : header.wallClockNs() - header.timeNs();
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano() - base;
    }

    /** Whether the writer closed cleanly: the run ends with a {@code CLOSED} record (not killed, not still running). */
    public boolean closed() {
        return !records.isEmpty() && records.get(records.size() - 1) instanceof JournalRecord.Closed;
    }

    /** The scheduler time the run started at (its header's, else its first record's). */
    public long startNs() {
        return header != null ? header.timeNs() : records.isEmpty() ? 0 : records.get(0).timeNs();
    }
}
