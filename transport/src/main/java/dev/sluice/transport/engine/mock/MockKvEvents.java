package dev.sluice.transport.engine.mock;

import java.util.Objects;

/**
 * Where the mock engine publishes its simulated worker's KV events, as vLLM's {@code --kv-events-config} would
 * say it: the PUB endpoint to bind, the replay ROUTER endpoint or null, the topic, and how many batches the replay
 * buffer keeps (vLLM's {@code buffer_steps}).
 *
 * @param endpoint       e.g. {@code tcp://*:5557}; port 0 binds a free one.
 * @param replayEndpoint e.g. {@code tcp://*:5558}, or null for none.
 * @param topic          the topic frame of every message; empty as vLLM's default.
 * @param bufferSteps    batches kept for replay, at least 1.
 */
public record MockKvEvents(String endpoint, String replayEndpoint, String topic, int bufferSteps) {
    public MockKvEvents {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(topic, "topic");
        if (bufferSteps < 1) {
            throw new IllegalArgumentException("the KV-event replay buffer must hold at least 1 batch, was "
                + bufferSteps);
        }
    }
}
