package dev.sluice.core.select;

import java.util.Arrays;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One block position in the {@link KvIndex} radix tree: the block's local hash under its parent and the set of
 * worker slots that hold it, as a bit set. Most nodes sit on a single chain, so the first child is kept inline (its
 * hash beside it, so a walk down a chain reads one node per block) and a child map is made only when a second child
 * arrives. The first two words of the bit set (slots 0 to 127) are fields, so a fleet of up to 128 ranks is matched
 * without reading another object per block.
 *
 * <p>Owned by the scheduler thread; not thread-safe.
 */
final class KvNode {
    final long localHash;
    KvNode parent;
    private KvNode onlyChild;
    /** {@code onlyChild.localHash}; meaningless while there is no only child. */
    private long onlyChildHash;
    private Long2ObjectHashMap<KvNode> children;
    /** Slots 0 to 63 and 64 to 127 of the bit set. */
    private long word0;
    private long word1;
    /** Words 2 and up, for slots from 128; empty until such a slot holds the block. */
    private long[] moreWords = NO_WORDS;
    private int workerCount;

    private static final long[] NO_WORDS = new long[0];

    KvNode(long localHash, KvNode parent) {
        this.localHash = localHash;
        this.parent = parent;
    }

    KvNode child(long hash) {
        if (children != null) {
            return children.get(hash);
        }
        return onlyChildHash == hash ? onlyChild : null;
    }

    void addChild(KvNode child) {
        if (children != null) {
            children.put(child.localHash, child);
        } else if (onlyChild == null) {
            onlyChild = child;
            onlyChildHash = child.localHash;
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
        // onlyChildHash may be left matching a hash: the null only child then still reads as no child.
    }

    boolean hasChildren() {
        return children != null ? !children.isEmpty() : onlyChild != null;
    }

    int workerCount() {
        return workerCount;
    }

    /** Slots 0 to 63 of the bit set. */
    long word0() {
        return word0;
    }

    /** Slots 64 to 127 of the bit set. */
    long word1() {
        return word1;
    }

    /** The bit-set word {@code index}; words no slot of this node ever reached are 0. */
    long word(int index) {
        if (index == 0) {
            return word0;
        }
        if (index == 1) {
            return word1;
        }
        int more = index - 2;
        return more < moreWords.length ? moreWords[more] : 0L;
    }

    boolean has(int slot) {
        return (word(slot >>> 6) & (1L << slot)) != 0;
    }

    /** Adds {@code slot}; false when it was already there. */
    boolean add(int slot) {
        if (has(slot)) {
            return false;
        }
        setWord(slot >>> 6, word(slot >>> 6) | (1L << slot));
        workerCount++;
        return true;
    }

    /** Removes {@code slot}; false when it was not there. */
    boolean remove(int slot) {
        if (!has(slot)) {
            return false;
        }
        setWord(slot >>> 6, word(slot >>> 6) & ~(1L << slot));
        workerCount--;
        return true;
    }

    private void setWord(int index, long value) {
        if (index == 0) {
            word0 = value;
        } else if (index == 1) {
            word1 = value;
        } else {
            int more = index - 2;
            if (more >= moreWords.length) {
                moreWords = Arrays.copyOf(moreWords, more + 1);
            }
            moreWords[more] = value;
        }
    }
}
