package dev.sluice.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.api.ClassifyRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Random insert / remove / replace / poll sequences (fixed seeds) applied to an {@link IntrusiveHeap} in each role
 * and to a {@link PriorityQueue} with an independently written comparator: the root, the size and what insert and
 * remove report must agree after every step, and the slots the elements keep must describe a valid heap. Keys come
 * from small ranges, so most comparisons are decided late, by the sequence. Every heap starts at capacity 1, so
 * growth is exercised too.
 */
class IntrusiveHeapTest {
    private static final int SEQUENCES = 40;
    private static final int STEPS = 2_000;
    private static final Comparator<QueueEntry> ENTRY_ORDER = Comparator
        .comparingInt((QueueEntry e) -> -e.strictPriority())
        .thenComparingLong(QueueEntry::dueAt)
        .thenComparingLong(e -> e.orderKey)
        .thenComparingLong(e -> e.sequence);
    private static final Comparator<QueueEntry> DEADLINE_ORDER = Comparator
        .comparingLong(QueueEntry::dueAt)
        .thenComparingLong(e -> e.sequence);
    private static final Comparator<Lane> BY_HEAD = Comparator.comparing(Lane::peek, ENTRY_ORDER);

    private long sequence;

    @Test
    void shouldMatchAPriorityQueueAsTheEntriesOfALane() {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            runEntries(new SplittableRandom(seed), IntrusiveHeap.LANE_ENTRIES, ENTRY_ORDER, e -> e.heapIndex, true);
        }
    }

    @Test
    void shouldMatchAPriorityQueueAsTheDeadlines() {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            runEntries(new SplittableRandom(seed), IntrusiveHeap.DEADLINES, DEADLINE_ORDER, e -> e.dueIndex, false);
        }
    }

    @Test
    void shouldMatchAPriorityQueueAsTheHeadsOfLanes() {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            runHeads(new SplittableRandom(seed));
        }
    }

    private void runEntries(SplittableRandom random, int role, Comparator<QueueEntry> order,
                            ToIntFunction<QueueEntry> slotOf, boolean anyDeadline) {
        IntrusiveHeap heap = new IntrusiveHeap(role, 1);
        PriorityQueue<QueueEntry> reference = new PriorityQueue<>(order);
        List<QueueEntry> held = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(10);
            if (op < 4 || held.isEmpty()) {
                QueueEntry entry = entry(random, anyDeadline);
                reference.add(entry);
                held.add(entry);
                assertEquals(reference.peek() == entry, heap.insert(entry), "insert reports a new root");
            } else if (op < 6) {
                QueueEntry entry = held.remove(random.nextInt(held.size()));
                boolean wasRoot = reference.peek() == entry;
                reference.remove(entry);
                assertEquals(wasRoot, heap.removeAt(slotOf.applyAsInt(entry)), "remove reports the old root");
            } else if (op < 8) {
                QueueEntry old = held.remove(random.nextInt(held.size()));
                QueueEntry entry = entry(random, anyDeadline);
                reference.remove(old);
                reference.add(entry);
                held.add(entry);
                heap.replaceAt(slotOf.applyAsInt(old), entry);
            } else {
                QueueEntry root = reference.poll();
                held.remove(root);
                assertSame(root, heap.peek());
                assertTrue(heap.removeAt(slotOf.applyAsInt(root)));
            }
            assertEquals(reference.size(), heap.size());
            assertSame(reference.peek(), heap.peek());
            assertValidHeap(held, order, slotOf);
        }
    }

    private void runHeads(SplittableRandom random) {
        IntrusiveHeap heap = new IntrusiveHeap(IntrusiveHeap.LANE_HEADS, 1);
        PriorityQueue<Lane> reference = new PriorityQueue<>(BY_HEAD);
        List<Lane> held = new ArrayList<>();
        List<Lane> out = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(10);
            if (op < 4 || held.isEmpty()) {
                Lane lane = out.isEmpty() || random.nextBoolean() ? new Lane(null, null, null) : out.removeLast();
                lane.add(entry(random, true));
                reference.add(lane);
                held.add(lane);
                assertEquals(reference.peek() == lane, heap.insert(lane.peek()), "insert reports a new root");
            } else if (op < 6) {
                Lane lane = held.remove(random.nextInt(held.size()));
                boolean wasRoot = reference.peek() == lane;
                reference.remove(lane);
                out.add(lane);
                int slot = lane.indexPos;
                lane.indexPos = -1;
                assertEquals(wasRoot, heap.removeAt(slot), "remove reports the old root");
            } else {
                Lane lane = held.get(random.nextInt(held.size()));
                reference.remove(lane);
                if (lane.size() > 1 && random.nextBoolean()) {
                    lane.remove(lane.peek());
                } else {
                    lane.add(entry(random, true));
                }
                reference.add(lane);
                heap.replaceAt(lane.indexPos, lane.peek());
            }
            assertEquals(reference.size(), heap.size());
            assertSame(reference.isEmpty() ? null : reference.peek().peek(), heap.peek());
            assertValidHeap(held, BY_HEAD, lane -> lane.indexPos);
        }
    }

    /** The kept slots are a permutation of 0..size-1 and no element is before its parent. */
    private static <T> void assertValidHeap(List<T> held, Comparator<T> order, ToIntFunction<T> slotOf) {
        List<T> bySlot = new ArrayList<>(held.size());
        for (int i = 0; i < held.size(); i++) {
            bySlot.add(null);
        }
        for (T t : held) {
            int slot = slotOf.applyAsInt(t);
            assertTrue(slot >= 0 && slot < held.size(), "slot in range");
            assertNull(bySlot.set(slot, t), "slots are distinct");
        }
        for (int slot = 1; slot < bySlot.size(); slot++) {
            assertTrue(order.compare(bySlot.get((slot - 1) >>> 1), bySlot.get(slot)) < 0, "heap order at " + slot);
        }
    }

    /** An entry with keys from small ranges (priority, deadline or none, score key) and a fresh unique sequence. */
    private QueueEntry entry(SplittableRandom random, boolean anyDeadline) {
        QueueEntry entry = new QueueFixtures.Req("e" + sequence);
        long dueAt = anyDeadline && random.nextBoolean() ? ClassifyRequest.NO_DEADLINE : random.nextInt(8);
        entry.setQueueSnapshot(0, 1, 0, 1, dueAt, random.nextInt(3), 0.0, 0, null);
        entry.orderKey = random.nextInt(4);
        entry.sequence = sequence++;
        return entry;
    }
}
