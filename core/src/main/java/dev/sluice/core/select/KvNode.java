package dev.sluice.core.select;

import java.util.Arrays;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One block position in the {@link KvIndex} radix tree: the block's local hash under its parent and the set of
 * worker slots that hold it, as a bit set. Most nodes sit on a single chain, so the first child is kept inline and
 * a child map is made only when a second child arrives.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class KvNode {
    final long localHash;
    KvNode parent;
    private KvNode onlyChild;
    private Long2ObjectHashMap<KvNode> children;
    private long[] workers;
    private int workerCount;

    KvNode(long localHash, KvNode parent, int words) {
        this.localHash = localHash;
        this.parent = parent;
        this.workers = new long[Math.max(1, words)];
    }

    KvNode child(long hash) {
        if (children != null) {
            return children.get(hash);
        }
        return onlyChild != null && onlyChild.localHash == hash ? onlyChild : null;
    }

    void addChild(KvNode child) {
        if (children != null) {
            children.put(child.localHash, child);
        } else if (onlyChild == null) {
            onlyChild = child;
        } else {
            children = new Long2ObjectHashMap<>();
            children.put(onlyChild.localHash, onlyChild);
            children.put(child.localHash, child);
            onlyChild = null;
        }
    }

    void removeChild(KvNode child) {
        if (children != null) {
            children.remove(child.localHash);
        } else if (onlyChild == child) {
            onlyChild = null;
        }
    }

    boolean hasChildren() {
        return children != null ? !children.isEmpty() : onlyChild != null;
    }

    int workerCount() {
        return workerCount;
    }

    /** The bit-set word {@code index}; words beyond the array are 0 (slots added after this node was made). */
    long word(int index) {
        return index < workers.length ? workers[index] : 0L;
    }

    boolean has(int slot) {
        return (word(slot >>> 6) & (1L << slot)) != 0;
    }

    /** Adds {@code slot}; false when it was already there. */
    boolean add(int slot) {
        int index = slot >>> 6;
        if (index >= workers.length) {
            workers = Arrays.copyOf(workers, index + 1);
        }
        long bit = 1L << slot;
        if ((workers[index] & bit) != 0) {
            return false;
        }
        workers[index] |= bit;
        workerCount++;
        return true;
    }

    /** Removes {@code slot}; false when it was not there. */
    boolean remove(int slot) {
        if (!has(slot)) {
            return false;
        }
        workers[slot >>> 6] &= ~(1L << slot);
        workerCount--;
        return true;
    }
}
