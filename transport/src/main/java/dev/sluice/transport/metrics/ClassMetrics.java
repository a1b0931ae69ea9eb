package dev.sluice.transport.metrics;

import dev.sluice.core.config.PolicyProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The per-policy-class figures of one router: a slot per class name ever configured since start (so a policy reload
 * never resets a counter or drops a series a scrape has seen), and which slot each class of the current profile
 * writes to. Replaced, never changed in shape, by {@link #reloaded}: written by the scheduler thread, read by scrapes
 * through {@link RouterMetrics}'s volatile reference.
 */
final class ClassMetrics {
    final List<String> names;
    final AtomicLongArray values;
    final LatencyHistogram[] queueWait;
    private final int[] slotOf;

    private ClassMetrics(List<String> names, AtomicLongArray values, LatencyHistogram[] queueWait, int[] slotOf) {
        this.names = List.copyOf(names);
        this.values = values;
        this.queueWait = queueWait;
        this.slotOf = slotOf;
    }

    static ClassMetrics of(PolicyProfile profile) {
        return new ClassMetrics(List.of(), new AtomicLongArray(0), new LatencyHistogram[0], new int[0])
            .reloaded(profile);
    }

    /** These figures for {@code next}: its classes of a known name keep their slots, new names get new ones. */
    ClassMetrics reloaded(PolicyProfile next) {
        List<String> all = new ArrayList<>(names);
        int[] slots = new int[next.classes().size()];
        for (int i = 0; i < slots.length; i++) {
            String name = next.classes().get(i).name();
            int slot = all.indexOf(name);
            if (slot < 0) {
                slot = all.size();
                all.add(name);
            }
            slots[i] = slot;
        }
        AtomicLongArray copy = new AtomicLongArray(all.size() * RouterMetrics.FIELDS);
        for (int i = 0; i < values.length(); i++) {
            copy.set(i, values.get(i));
        }
        LatencyHistogram[] waits = java.util.Arrays.copyOf(queueWait, all.size());
        for (int i = queueWait.length; i < waits.length; i++) {
            waits[i] = new LatencyHistogram();
        }
        return new ClassMetrics(all, copy, waits, slots);
    }

    /** The slot of a class index of the current profile, or -1 (not queued in one). */
    int slot(int classIndex) {
        return classIndex >= 0 && classIndex < slotOf.length ? slotOf[classIndex] : -1;
    }

    /** The slot of a class name, or -1. */
    int slot(String name) {
        return names.indexOf(name);
    }
}
