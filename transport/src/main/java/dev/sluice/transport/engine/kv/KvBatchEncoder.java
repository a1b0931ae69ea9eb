package dev.sluice.transport.engine.kv;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;

/**
 * Encodes a batch as vLLM (up to 0.23) and SGLang publish it: msgspec's array-like structs, each event a tagged
 * array, {@code [ts, [events...], data_parallel_rank]}; a {@code BlockStored} is {@code ["BlockStored",
 * block_hashes, parent_block_hash, token_ids, block_size, lora_id, medium, lora_name]} with the hashes as
 * integers, and a {@code BlockRemoved} is {@code ["BlockRemoved", block_hashes, medium]}. A stored event's extra
 * keys and group are not written (the mock engine has neither). Stateless and thread-safe.
 */
public final class KvBatchEncoder {
    private KvBatchEncoder() {
    }

    /** The payload of {@code batch}. */
    public static byte[] encode(KvWireBatch batch) {
        try (MessageBufferPacker out = MessagePack.newDefaultBufferPacker()) {
            boolean rank = batch.dpRank() != KvWireBatch.NO_RANK;
            out.packArrayHeader(rank ? 3 : 2);
            out.packDouble(batch.timestamp());
            out.packArrayHeader(batch.events().size());
            for (KvWireEvent event : batch.events()) {
                event(out, event);
            }
            if (rank) {
                out.packInt(batch.dpRank());
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a KV-event batch in memory", e);
        }
    }

    private static void event(MessagePacker out, KvWireEvent event) throws IOException {
        switch (event) {
            case KvWireEvent.BlockStored stored -> {
                out.packArrayHeader(8);
                out.packString("BlockStored");
                hashes(out, stored.blockHashes());
                if (stored.hasParent()) {
                    out.packLong(stored.parentHash());
                } else {
                    out.packNil();
                }
                out.packArrayHeader(stored.tokenIds().length);
                for (int token : stored.tokenIds()) {
                    out.packInt(token);
                }
                out.packInt(stored.blockSize());
                out.packNil();
                string(out, stored.medium());
                out.packNil();
            }
            case KvWireEvent.BlockRemoved removed -> {
                out.packArrayHeader(3);
                out.packString("BlockRemoved");
                hashes(out, removed.blockHashes());
                string(out, removed.medium());
            }
            case KvWireEvent.AllBlocksCleared cleared -> {
                out.packArrayHeader(1);
                out.packString("AllBlocksCleared");
            }
        }
    }

    private static void hashes(MessagePacker out, long[] hashes) throws IOException {
        out.packArrayHeader(hashes.length);
        for (long hash : hashes) {
            out.packLong(hash);
        }
    }

    private static void string(MessagePacker out, String value) throws IOException {
        if (value == null) {
            out.packNil();
        } else {
            out.packString(value);
        }
    }
}
