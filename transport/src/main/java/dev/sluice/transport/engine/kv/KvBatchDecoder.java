package dev.sluice.transport.engine.kv;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.openhft.hashing.LongHashFunction;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageInsufficientBufferException;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;

/**
 * Decodes a KV-event payload, the msgpack of a {@code KVEventBatch}, in every shape vLLM and SGLang have published:
 * <ul>
 *   <li>the batch as an array {@code [ts, events, data_parallel_rank?, ...]} (msgspec {@code array_like}, trailing
 *   defaults omitted) or as a map with those names ({@code attn_dp_rank} for SGLang's rank);</li>
 *   <li>each event as a tagged array {@code ["BlockStored", block_hashes, parent_block_hash, token_ids, block_size,
 *   lora_id?, medium?, lora_name?, extra_keys?, group_idx?, kv_cache_spec_kind?, ...]} (vLLM up to 0.23, SGLang)
 *   or as a map tagged by {@code type} (vLLM after its switch to map encoding);</li>
 *   <li>block hashes as integers (signed or unsigned 64-bit) or as bytes (vLLM with
 *   {@code VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=0}), folded to 64 bits: up to 8 bytes big-endian as they are,
 *   longer ones by XXH3-64;</li>
 *   <li>fields this decoder does not know, at the end of an array or anywhere in a map, are skipped.</li>
 * </ul>
 * A payload that is not a batch fails as a whole; an event that is malformed (an unknown tag, a missing field, a
 * field of the wrong type, token ids that do not fill the blocks) is left out and named in
 * {@link Result#rejected}, and the batch's other events are kept. Stateless and thread-safe.
 */
public final class KvBatchDecoder {
    private static final LongHashFunction FOLD = LongHashFunction.xx3();
    private static final Value TYPE = ValueFactory.newString("type");

    private KvBatchDecoder() {
    }

    /**
     * A decoded batch and what was left out of it.
     *
     * @param batch    the batch with its well-formed events.
     * @param rejected one message per malformed event, naming its index and the fault.
     */
    public record Result(KvWireBatch batch, List<String> rejected) {
        public Result {
            rejected = List.copyOf(rejected);
        }
    }

    /** @throws KvWireException when the payload is not msgpack or not a batch; the message says why. */
    public static Result decode(byte[] payload) throws KvWireException {
        Value root;
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            root = unpacker.unpackValue();
            if (unpacker.hasNext()) {
                throw new KvWireException("bytes left after the batch");
            }
        } catch (MessageInsufficientBufferException e) {
            throw new KvWireException("not msgpack: it ends inside a value");
        } catch (IOException | MessagePackException e) {
            throw new KvWireException("not msgpack: " + e.getMessage());
        }
        Fields batch = Fields.of(root);
        if (batch == null) {
            throw new KvWireException("the batch is a " + root.getValueType().name().toLowerCase(Locale.ROOT)
                + ", not an array or a map");
        }
        Value ts = batch.get(0, "ts");
        if (ts == null || !ts.isNumberValue()) {
            throw new KvWireException("the batch's ts is " + describe(ts) + ", not a number");
        }
        Value events = batch.get(1, "events");
        if (events == null || !events.isArrayValue()) {
            throw new KvWireException("the batch's events are " + describe(events) + ", not an array");
        }
        Value rank = batch.get(2, "data_parallel_rank");
        rank = rank == null ? batch.get(-1, "attn_dp_rank") : rank;
        int dpRank = KvWireBatch.NO_RANK;
        if (rank != null && !rank.isNilValue()) {
            if (!rank.isIntegerValue() || !rank.asIntegerValue().isInIntRange() || rank.asIntegerValue().toInt() < 0) {
                throw new KvWireException("the batch's data_parallel_rank is " + describe(rank)
                    + ", not a rank >= 0");
            }
            dpRank = rank.asIntegerValue().toInt();
        }
        List<KvWireEvent> decoded = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        ArrayValue list = events.asArrayValue();
        for (int i = 0; i < list.size(); i++) {
            try {
                decoded.add(event(list.get(i)));
            } catch (KvWireException e) {
                rejected.add("event " + i + ": " + e.getMessage());
            }
        }
        double timestamp = ts.isFloatValue() ? ts.asFloatValue().toDouble() : ts.asIntegerValue().toDouble();
        return new Result(new KvWireBatch(timestamp, decoded, dpRank), rejected);
    }

    private static KvWireEvent event(Value value) throws KvWireException {
        Fields fields = Fields.of(value);
        if (fields == null) {
            throw new KvWireException("a " + describe(value) + ", not an array or a map");
        }
        Value tag = fields.get(0, TYPE);
        if (tag == null || !tag.isStringValue()) {
            throw new KvWireException("its tag is " + describe(tag) + ", not a string");
        }
        return switch (tag.asStringValue().asString()) {
            case "BlockStored" -> stored(fields);
            case "BlockRemoved" -> new KvWireEvent.BlockRemoved(hashes(fields.get(1, "block_hashes"),
                "block_hashes"), optionalString(fields.get(2, "medium"), "medium"),
                optionalGroup(fields.get(3, "group_idx")));
            case "AllBlocksCleared" -> new KvWireEvent.AllBlocksCleared();
            default -> throw new KvWireException("unknown tag '" + tag.asStringValue().asString() + "'");
        };
    }

    private static KvWireEvent stored(Fields fields) throws KvWireException {
        long[] hashes = hashes(fields.get(1, "block_hashes"), "block_hashes");
        Value parent = required(fields.get(2, "parent_block_hash"), "parent_block_hash");
        boolean hasParent = !parent.isNilValue();
        long parentHash = hasParent ? hash(parent, "parent_block_hash") : 0L;
        Value tokens = required(fields.get(3, "token_ids"), "token_ids");
        if (!tokens.isArrayValue()) {
            throw new KvWireException("token_ids is " + describe(tokens) + ", not an array");
        }
        Value size = required(fields.get(4, "block_size"), "block_size");
        if (!size.isIntegerValue() || !size.asIntegerValue().isInIntRange() || size.asIntegerValue().toInt() < 1) {
            throw new KvWireException("block_size is " + describe(size) + ", not a size >= 1");
        }
        int blockSize = size.asIntegerValue().toInt();
        ArrayValue tokenList = tokens.asArrayValue();
        if ((long) hashes.length * blockSize != tokenList.size()) {
            throw new KvWireException("token_ids holds " + tokenList.size() + " tokens, not " + hashes.length
                + " blocks of " + blockSize);
        }
        int[] tokenIds = new int[tokenList.size()];
        for (int i = 0; i < tokenIds.length; i++) {
            Value token = tokenList.get(i);
            if (!token.isIntegerValue() || !token.asIntegerValue().isInIntRange()) {
                throw new KvWireException("token_ids[" + i + "] is " + describe(token) + ", not a token id");
            }
            tokenIds[i] = token.asIntegerValue().toInt();
        }
        boolean extraKeys = present(fields.get(5, "lora_id"), "lora_id", true)
            | present(fields.get(7, "lora_name"), "lora_name", false)
            | present(fields.get(-1, "metadata"), "metadata", false)
            | extraKeys(fields.get(8, "extra_keys"));
        String medium = optionalString(fields.get(6, "medium"), "medium");
        int group = optionalGroup(fields.get(9, "group_idx"));
        String kind = optionalString(fields.get(10, "kv_cache_spec_kind"), "kv_cache_spec_kind");
        return new KvWireEvent.BlockStored(hashes, hasParent, parentHash, tokenIds, blockSize, medium, extraKeys,
            group, kind);
    }

    /**
     * Whether an optional hash input is there: a LoRA id (an integer), a LoRA name (a string; SGLang's metadata
     * map sits at the same position in its arrays), a metadata map that is not empty.
     */
    private static boolean present(Value value, String name, boolean integer) throws KvWireException {
        if (value == null || value.isNilValue()) {
            return false;
        }
        if (value.isMapValue()) {
            return value.asMapValue().size() > 0;
        }
        if (integer ? value.isIntegerValue() : value.isStringValue()) {
            return true;
        }
        throw new KvWireException(name + " is " + describe(value) + ", not " + (integer ? "an integer" : "a string"));
    }

    private static boolean extraKeys(Value value) throws KvWireException {
        if (value == null || value.isNilValue()) {
            return false;
        }
        if (!value.isArrayValue()) {
            throw new KvWireException("extra_keys is " + describe(value) + ", not an array");
        }
        for (Value keys : value.asArrayValue()) {
            if (!keys.isNilValue()) {
                return true;
            }
        }
        return false;
    }

    private static long[] hashes(Value value, String name) throws KvWireException {
        required(value, name);
        if (!value.isArrayValue()) {
            throw new KvWireException(name + " is " + describe(value) + ", not an array");
        }
        ArrayValue list = value.asArrayValue();
        long[] hashes = new long[list.size()];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = hash(list.get(i), name + "[" + i + "]");
        }
        return hashes;
    }

    /** An engine's block hash as 64 bits: an integer as it is (unsigned ones wrap), bytes folded. */
    static long hash(Value value, String name) throws KvWireException {
        if (value.isIntegerValue()) {
            return value.asIntegerValue().toLong();
        }
        if (value.isBinaryValue()) {
            return fold(value.asBinaryValue().asByteArray());
        }
        throw new KvWireException(name + " is " + describe(value) + ", not an integer or bytes");
    }

    /** Up to 8 bytes big-endian as they are; longer hashes (sha256 digests) by XXH3-64 over all their bytes. */
    static long fold(byte[] bytes) {
        if (bytes.length > Long.BYTES) {
            return FOLD.hashBytes(bytes);
        }
        long value = 0;
        for (byte b : bytes) {
            value = (value << 8) | (b & 0xFF);
        }
        return value;
    }

    private static String optionalString(Value value, String name) throws KvWireException {
        if (value == null || value.isNilValue()) {
            return null;
        }
        if (!value.isStringValue()) {
            throw new KvWireException(name + " is " + describe(value) + ", not a string");
        }
        return value.asStringValue().asString();
    }

    private static int optionalGroup(Value value) throws KvWireException {
        if (value == null || value.isNilValue()) {
            return KvWireEvent.NO_GROUP;
        }
        if (!value.isIntegerValue() || !value.asIntegerValue().isInIntRange() || value.asIntegerValue().toInt() < 0) {
            throw new KvWireException("group_idx is " + describe(value) + ", not a group >= 0");
        }
        return value.asIntegerValue().toInt();
    }

    private static Value required(Value value, String name) throws KvWireException {
        if (value == null) {
            throw new KvWireException(name + " is missing");
        }
        return value;
    }

    private static String describe(Value value) {
        if (value == null) {
            return "missing";
        }
        String text = value.toJson();
        String type = value.getValueType().name().toLowerCase(Locale.ROOT);
        return type + " " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }

    /** A struct's fields, by position (array-like) or by name (map). */
    private interface Fields {
        /** The field at {@code index} of an array (negative: none there), or named {@code name} in a map. */
        Value get(int index, Value name);

        default Value get(int index, String name) {
            return get(index, ValueFactory.newString(name));
        }

        static Fields of(Value value) {
            if (value.isArrayValue()) {
                ArrayValue array = value.asArrayValue();
                return (index, name) -> index >= 0 && index < array.size() ? array.get(index) : null;
            }
            if (value.isMapValue()) {
                Map<Value, Value> map = value.asMapValue().map();
                return (index, name) -> map.get(name);
            }
            return null;
        }
    }
}
