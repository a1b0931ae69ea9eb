package dev.sluice.transport.engine.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON mapper of remote engines' requests and answers. Its parse and write buffers come from one pool shared by
 * all threads (the event loops, the frontend's virtual threads, the probes'), rather than Jackson's default pool
 * per thread, which a fresh virtual thread would fill anew on each request. Thread-safe.
 */
final class ReaderJson {
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
        .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build());

    private ReaderJson() {
    }
}
