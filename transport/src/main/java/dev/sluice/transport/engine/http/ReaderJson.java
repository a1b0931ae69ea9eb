package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON mapper of the requests' reader threads. Each request's reader is a fresh virtual thread, for which
 * Jackson's default per-thread buffer pool would allocate its parse and write buffers anew on every request; this
 * mapper's buffers come from one pool shared by all threads. Thread-safe.
 */
final class ReaderJson {
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
        .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build());

    private ReaderJson() {
    }
}
