package dev.sluice.transport.cluster;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One booking message between replicas, and its binary form (big-endian): a version byte, the {@link Kind}, the
 * sender's replica key, the sequence number of the sender's stream for this model, the sending time (epoch µs, 0 for
 * a replayed booking), the sender's request key; a {@code BOOKED} message adds the engine's address (replicas number
 * their workers each their own way; the address is what they share), the data-parallel rank, the prefill tokens and
 * the block sequence hashes. Strings are a 16-bit length and UTF-8. Immutable.
 */
record BookingWire(Kind kind, String replica, long seq, long sentMicros, long key, String engine, int dpRank,
                   long prefillTokens, long[] hashes) {
    private static final byte VERSION = 1;

    /** What a message says. */
    enum Kind {
        /** A request was placed on an engine. */
        BOOKED,
        /** Its first token came: its prefill tokens leave the load. */
        PREFILL_DONE,
        /** It ended. */
        RELEASED,
        /** Forget every booking of the sender: its live bookings follow (a resync). */
        RESET
    }

    static BookingWire booked(String replica, long seq, long sentMicros, long key, String engine, int dpRank,
                              long prefillTokens, long[] hashes) {
        return new BookingWire(Kind.BOOKED, replica, seq, sentMicros, key, engine, dpRank, prefillTokens, hashes);
    }

    static BookingWire of(Kind kind, String replica, long seq, long key) {
        return new BookingWire(kind, replica, seq, 0, key, "", 0, 0, new long[0]);
    }

    /** This message with another sequence number and sending time (a replay of a live booking). */
    BookingWire resent(long newSeq, long newSentMicros) {
        return new BookingWire(kind, replica, newSeq, newSentMicros, key, engine, dpRank, prefillTokens, hashes);
    }

    byte[] encode() {
        byte[] replicaBytes = replica.getBytes(StandardCharsets.UTF_8);
        byte[] engineBytes = engine.getBytes(StandardCharsets.UTF_8);
        int size = 2 + 2 + replicaBytes.length + 24;
        if (kind == Kind.BOOKED) {
            size += 2 + engineBytes.length + 4 + 8 + 4 + 8 * hashes.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION).put((byte) kind.ordinal());
        putString(out, replicaBytes);
        out.putLong(seq).putLong(sentMicros).putLong(key);
        if (kind == Kind.BOOKED) {
            putString(out, engineBytes);
            out.putInt(dpRank).putLong(prefillTokens).putInt(hashes.length);
            for (long hash : hashes) {
                out.putLong(hash);
            }
        }
        return out.array();
    }

    /**
     * Reads a message.
     *
     * @throws IllegalArgumentException not a booking message of this version (the reason says what is wrong).
     */
    static BookingWire decode(byte[] data) {
        try {
            ByteBuffer in = ByteBuffer.wrap(data);
            byte version = in.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("booking message version " + version + ", expected " + VERSION);
            }
            int kindIndex = in.get();
            if (kindIndex < 0 || kindIndex >= Kind.values().length) {
                throw new IllegalArgumentException("booking message kind " + kindIndex + " is unknown");
            }
            Kind kind = Kind.values()[kindIndex];
            String replica = getString(in);
            long seq = in.getLong();
            long sentMicros = in.getLong();
            long key = in.getLong();
            if (kind != Kind.BOOKED) {
                return new BookingWire(kind, replica, seq, sentMicros, key, "", 0, 0, new long[0]);
            }
            String engine = getString(in);
            int dpRank = in.getInt();
            long prefill = in.getLong();
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / 8 || dpRank < 0 || prefill < 0) {
                throw new IllegalArgumentException("booking message has " + count + " hashes, rank " + dpRank
                    + ", prefill " + prefill + " in " + data.length + " bytes");
            }
            long[] hashes = new long[count];
            for (int i = 0; i < count; i++) {
                hashes[i] = in.getLong();
            }
            return booked(replica, seq, sentMicros, key, engine, dpRank, prefill, hashes);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("booking message truncated at " + data.length + " bytes", e);
        }
    }

    private static void putString(ByteBuffer out, byte[] bytes) {
        out.putShort((short) bytes.length).put(bytes);
    }

    private static String getString(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
