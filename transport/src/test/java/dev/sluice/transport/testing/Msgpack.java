package dev.sluice.transport.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;

/**
 * Builds msgpack payloads by hand, value by value, the way msgspec writes them: tests of the KV-event decoder build
 * engines' documented layouts with it rather than with sluice's own encoder. Strings, integers (a
 * {@link BigInteger} for an unsigned 64-bit value), doubles, bytes, null, lists and maps (in insertion order).
 */
public final class Msgpack {
    private Msgpack() {
    }

    /** The msgpack of {@code value}. */
    public static byte[] pack(Object value) {
        try (MessageBufferPacker out = MessagePack.newDefaultBufferPacker()) {
            write(out, value);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A list, for nesting: {@code list("BlockStored", list(1L, 2L), null)}. */
    public static List<Object> list(Object... values) {
        return Arrays.asList(values);
    }

    /** A map from alternating keys and values, in that order. */
    public static Map<Object, Object> map(Object... keysAndValues) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** {@code count} token ids from {@code first} on, as a list. */
    public static List<Object> tokens(int first, int count) {
        Object[] tokens = new Object[count];
        for (int i = 0; i < count; i++) {
            tokens[i] = (long) (first + i);
        }
        return Arrays.asList(tokens);
    }

    private static void write(MessagePacker out, Object value) throws IOException {
        switch (value) {
            case null -> out.packNil();
            case String s -> out.packString(s);
            case Integer i -> out.packInt(i);
            case Long l -> out.packLong(l);
            case BigInteger b -> out.packBigInteger(b);
            case Double d -> out.packDouble(d);
            case Boolean b -> out.packBoolean(b);
            case byte[] bytes -> {
                out.packBinaryHeader(bytes.length);
                out.writePayload(bytes);
            }
            case List<?> list -> {
                out.packArrayHeader(list.size());
                for (Object item : list) {
                    write(out, item);
                }
            }
            case Map<?, ?> map -> {
                out.packMapHeader(map.size());
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    write(out, e.getKey());
                    write(out, e.getValue());
                }
            }
            default -> throw new IllegalArgumentException("cannot pack a " + value.getClass());
        }
    }
}
