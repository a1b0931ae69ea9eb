package dev.sluice.transport.engine.kv;

import static dev.sluice.transport.testing.Msgpack.list;
import static dev.sluice.transport.testing.Msgpack.map;
import static dev.sluice.transport.testing.Msgpack.pack;
import static dev.sluice.transport.testing.Msgpack.tokens;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/**
 * The payloads vLLM and SGLang publish, built field by field from their sources' structs (msgspec, array-like and
 * tagged, trailing defaults omitted; later vLLM: tagged maps) rather than with sluice's encoder.
 */
class KvBatchDecoderTest {
    private static KvBatchDecoder.Result decode(Object batch) throws KvWireException {
        return KvBatchDecoder.decode(pack(batch));
    }

    @Test
    void shouldDecodeVllmsArrayLikeBatchOfEveryEventType() throws KvWireException {
        // vLLM 0.10-0.23: BlockStored has medium; the batch's data_parallel_rank holds its default and is omitted.
        KvBatchDecoder.Result result = decode(list(1717000000.25, list(
            list("BlockStored", list(101L, 102L), null, tokens(0, 32), 16L, null, "GPU"),
            list("BlockStored", list(103L), 102L, tokens(32, 16), 16L, null, "GPU"),
            list("BlockRemoved", list(103L), "GPU"),
            list("AllBlocksCleared"))));

        assertEquals(List.of(), result.rejected());
        KvWireBatch batch = result.batch();
        assertEquals(1717000000.25, batch.timestamp());
        assertEquals(KvWireBatch.NO_RANK, batch.dpRank());
        assertEquals(List.of(
            new KvWireEvent.BlockStored(new long[] {101, 102}, false, 0, ints(0, 32), 16, "GPU", false,
                KvWireEvent.NO_GROUP, null),
            new KvWireEvent.BlockStored(new long[] {103}, true, 102, ints(32, 16), 16, "GPU", false,
                KvWireEvent.NO_GROUP, null),
            new KvWireEvent.BlockRemoved(new long[] {103}, "GPU", KvWireEvent.NO_GROUP),
            new KvWireEvent.AllBlocksCleared()), batch.events());
    }

    @Test
    void shouldReadTheRankAndTheNewerTrailingFieldsAndSkipUnknownOnes() throws KvWireException {
        // lora_name, extra_keys (one per block), group_idx, kv_cache_spec_kind, sliding window, then a future field.
        KvBatchDecoder.Result result = decode(list(2.0, list(
            list("BlockStored", list(7L), null, tokens(5, 4), 4L, null, "GPU", null, list((Object) null), 0L,
                "full_attention", null, "a field from a later release"),
            list("BlockRemoved", list(7L), "CPU", 1L, "later")), 3L, "later batch field"));

        assertEquals(3, result.batch().dpRank());
        assertEquals(new KvWireEvent.BlockStored(new long[] {7}, false, 0, ints(5, 4), 4, "GPU", false, 0,
            "full_attention"), result.batch().events().get(0));
        assertEquals(new KvWireEvent.BlockRemoved(new long[] {7}, "CPU", 1), result.batch().events().get(1));
    }

    @Test
    void shouldDecodeMapEncodedEventsAndBatches() throws KvWireException {
        // vLLM after its switch to map encoding: tagged by "type", fields by name, in any order, unknown ones skipped.
        Object stored = map("type", "BlockStored", "token_ids", tokens(0, 2), "block_hashes",
            list(new BigInteger("15760518052499183552")), "parent_block_hash", null, "block_size", 2L,
            "lora_id", null, "medium", "GPU", "lora_name", null, "extra_keys", list((Object) null), "group_idx", 0L,
            "kv_cache_spec_kind", "full_attention", "locality", "local");
        KvBatchDecoder.Result arrayBatch = decode(list(1.0, list(stored, map("type", "AllBlocksCleared")), 0L));
        KvBatchDecoder.Result mapBatch = decode(map("ts", 1.0, "events", list(map("type", "BlockRemoved",
            "block_hashes", list(9L), "medium", null)), "attn_dp_rank", 1L));

        KvWireEvent.BlockStored decoded = (KvWireEvent.BlockStored) arrayBatch.batch().events().get(0);
        assertArrayEquals(new long[] {new BigInteger("15760518052499183552").longValue()}, decoded.blockHashes());
        assertFalse(decoded.hasParent());
        assertEquals(0, decoded.groupIdx());
        assertEquals(new KvWireEvent.AllBlocksCleared(), arrayBatch.batch().events().get(1));
        assertEquals(0, arrayBatch.batch().dpRank());
        assertEquals(1, mapBatch.batch().dpRank());
        assertEquals(new KvWireEvent.BlockRemoved(new long[] {9}, null, KvWireEvent.NO_GROUP),
            mapBatch.batch().events().get(0));
    }

    @Test
    void shouldTakeIntegerHashesSignedOrUnsignedAndFoldBytesHashes() throws KvWireException {
        byte[] sha256 = new byte[32];
        for (int i = 0; i < sha256.length; i++) {
            sha256[i] = (byte) (i * 7 + 1);
        }
        byte[] eight = {1, 2, 3, 4, 5, 6, 7, 8};
        KvBatchDecoder.Result result = decode(list(0.5, list(
            list("BlockRemoved", list(new BigInteger("18446744073709551615"), -5L, 42L, sha256, eight), "GPU"),
            list("BlockStored", list(sha256), eight, tokens(0, 1), 1L, null, null))));

        assertArrayEquals(new long[] {-1L, -5L, 42L, LongHashFunction.xx3().hashBytes(sha256), 0x0102030405060708L},
            ((KvWireEvent.BlockRemoved) result.batch().events().get(0)).blockHashes());
        KvWireEvent.BlockStored stored = (KvWireEvent.BlockStored) result.batch().events().get(1);
        assertEquals(0x0102030405060708L, stored.parentHash());
        assertEquals(null, stored.medium());
    }

    @Test
    void shouldMarkBlocksWhoseHashHadMoreThanTheirTokens() throws KvWireException {
        KvBatchDecoder.Result result = decode(list(0.0, list(
            // SGLang: no medium, lora_id last; an adapter is set.
            list("BlockStored", list(1L), null, tokens(0, 2), 2L, 3L),
            // vLLM: a LoRA by name.
            list("BlockStored", list(2L), null, tokens(0, 2), 2L, null, "GPU", "my-adapter"),
            // vLLM: multimodal or salted blocks carry extra keys.
            list("BlockStored", list(3L), null, tokens(0, 2), 2L, null, "GPU", null, list(list("mm-hash", 0L))),
            // SGLang's salted events: a metadata map where vLLM has lora_name.
            list("BlockStored", list(4L), null, tokens(0, 2), 2L, null, "GPU", map("cache_salt", "tenant-a")),
            // Plain: every hash input is absent.
            list("BlockStored", list(5L), null, tokens(0, 2), 2L, null, "GPU", null, list((Object) null)))));

        List<KvWireEvent> events = result.batch().events();
        for (int i = 0; i < 4; i++) {
            assertTrue(((KvWireEvent.BlockStored) events.get(i)).extraKeys(), "event " + i);
        }
        assertFalse(((KvWireEvent.BlockStored) events.get(4)).extraKeys());
    }

    @Test
    void shouldLeaveOutMalformedEventsAndSayWhyKeepingTheOthers() throws KvWireException {
        KvBatchDecoder.Result result = decode(list(1.0, list(
            list("BlockStored", list(1L), null, tokens(0, 4), 4L),
            list("BlockUpdated", list(1L)),
            list("BlockStored", "not a list", null, tokens(0, 4), 4L),
            list("BlockStored", list(2L, 3L), null, tokens(0, 4), 4L),
            list("BlockStored", list(2L), null, tokens(0, 4), 0L),
            list("BlockRemoved", list(1.5)),
            list("BlockStored", list(2L), null),
            list(7L),
            "BlockStored",
            list("BlockRemoved", list(1L), 7L))));

        assertEquals(1, result.batch().events().size());
        assertEquals(List.of(
            "event 1: unknown tag 'BlockUpdated'",
            "event 2: block_hashes is string \"not a list\", not an array",
            "event 3: token_ids holds 4 tokens, not 2 blocks of 4",
            "event 4: block_size is integer 0, not a size >= 1",
            "event 5: block_hashes[0] is float 1.5, not an integer or bytes",
            "event 6: token_ids is missing",
            "event 7: its tag is integer 7, not a string",
            "event 8: a string \"BlockStored\", not an array or a map",
            "event 9: medium is integer 7, not a string"), result.rejected());
    }

    @Test
    void shouldRefuseAPayloadThatIsNoBatch() {
        assertEquals("not msgpack: it ends inside a value", message(new byte[] {(byte) 0x92, 0x01}));
        assertTrue(message(new byte[] {(byte) 0xc1}).startsWith("not msgpack: "), message(new byte[] {(byte) 0xc1}));
        assertEquals("the batch is a string, not an array or a map", message(pack("hello")));
        assertEquals("the batch's ts is missing, not a number", message(pack(list())));
        assertEquals("the batch's events are map {}, not an array", message(pack(list(1.0, map()))));
        assertEquals("the batch's data_parallel_rank is integer -1, not a rank >= 0",
            message(pack(list(1.0, list(), -1L))));
        byte[] twice = new byte[pack(list(1.0, list())).length * 2];
        System.arraycopy(pack(list(1.0, list())), 0, twice, 0, twice.length / 2);
        System.arraycopy(pack(list(1.0, list())), 0, twice, twice.length / 2, twice.length / 2);
        assertEquals("bytes left after the batch", message(twice));
    }

    @Test
    void shouldReadWhatItsOwnEncoderWrites() throws KvWireException {
        KvWireBatch batch = new KvWireBatch(3.5, List.of(
            KvWireEvent.BlockStored.of(new long[] {-9, 11}, true, Long.MIN_VALUE, ints(0, 8), 4),
            KvWireEvent.BlockRemoved.of(-9), new KvWireEvent.AllBlocksCleared()), 2);

        assertEquals(batch, KvBatchDecoder.decode(KvBatchEncoder.encode(batch)).batch());
    }

    private static String message(byte[] payload) {
        return assertThrows(KvWireException.class, () -> KvBatchDecoder.decode(payload)).getMessage();
    }

    private static int[] ints(int first, int count) {
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = first + i;
        }
        return values;
    }
}
