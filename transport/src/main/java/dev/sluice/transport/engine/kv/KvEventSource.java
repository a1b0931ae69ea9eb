package dev.sluice.transport.engine.kv;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where one engine publishes its KV events, as its {@code --kv-events-config} says: the PUB endpoint (vLLM's and
 * SGLang's {@code endpoint}, bound there as {@code tcp://*:5557}, connected to here as {@code tcp://HOST:5557}),
 * the replay ROUTER endpoint if the engine has one ({@code replay_endpoint}), the topic (a prefix; empty: all),
 * and how many data-parallel ranks publish: rank {@code r} binds the base port + {@code r} (vLLM's and SGLang's
 * {@code offset_endpoint_port}), its replay socket too. Immutable.
 *
 * @param endpoint         {@code tcp://HOST:PORT}, {@code ipc://PATH} or {@code inproc://NAME}.
 * @param replayEndpoint   the replay socket, or null: a gap then always resets the worker's cache in the router.
 * @param topic            the topic prefix subscribed to; empty for every message.
 * @param dataParallelSize ranks publishing, at least 1.
 * @param replayTimeout    how long a replay may stay silent before the gap counts as unrecoverable.
 */
public record KvEventSource(String endpoint, String replayEndpoint, String topic, int dataParallelSize,
                            Duration replayTimeout) {
    /** How long a replay socket may stay silent by default. */
    public static final Duration DEFAULT_REPLAY_TIMEOUT = Duration.ofSeconds(3);

    private static final Pattern TCP = Pattern.compile("tcp://(\\[[0-9A-Fa-f:.]+]|[^:/\\[\\]*]+):(\\d{1,5})");

    public KvEventSource {
        check(endpoint, "endpoint");
        if (replayEndpoint != null) {
            check(replayEndpoint, "replay endpoint");
        }
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(replayTimeout, "replayTimeout");
        if (dataParallelSize < 1) {
            throw new IllegalArgumentException("dataParallelSize must be >= 1, was " + dataParallelSize);
        }
        if (replayTimeout.isNegative() || replayTimeout.isZero()) {
            throw new IllegalArgumentException("the replay timeout must be positive, was " + replayTimeout);
        }
        rankEndpoint(endpoint, dataParallelSize - 1);
    }

    /** One rank, every topic, the default replay timeout. */
    public KvEventSource(String endpoint, String replayEndpoint) {
        this(endpoint, replayEndpoint, "", 1, DEFAULT_REPLAY_TIMEOUT);
    }

    /**
     * Parses {@code ENDPOINT[,replay=ENDPOINT][,topic=NAME]}, e.g.
     * {@code tcp://10.0.0.5:5557,replay=tcp://10.0.0.5:5558}.
     *
     * @throws IllegalArgumentException naming the part that is wrong.
     */
    public static KvEventSource parse(String spec) {
        String[] parts = spec.split(",", -1);
        String replay = null;
        String topic = "";
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            if (part.startsWith("replay=")) {
                replay = part.substring("replay=".length());
            } else if (part.startsWith("topic=")) {
                topic = part.substring("topic=".length());
            } else {
                throw new IllegalArgumentException("'" + part + "' in '" + spec + "' is neither replay=ENDPOINT nor "
                    + "topic=NAME");
            }
        }
        return new KvEventSource(parts[0], replay, topic, 1, DEFAULT_REPLAY_TIMEOUT);
    }

    /** The same source with {@code ranks} data-parallel ranks. */
    public KvEventSource withDataParallelSize(int ranks) {
        return new KvEventSource(endpoint, replayEndpoint, topic, ranks, replayTimeout);
    }

    /** The same source with another replay timeout. */
    public KvEventSource withReplayTimeout(Duration timeout) {
        return new KvEventSource(endpoint, replayEndpoint, topic, dataParallelSize, timeout);
    }

    /** Rank {@code rank}'s PUB endpoint. */
    public String endpoint(int rank) {
        return rankEndpoint(endpoint, rank);
    }

    /** Rank {@code rank}'s replay endpoint, or null. */
    public String replayEndpoint(int rank) {
        return replayEndpoint == null ? null : rankEndpoint(replayEndpoint, rank);
    }

    /** As the engines offset it: a TCP port plus the rank, {@code _dpN} after an ipc or inproc name. */
    static String rankEndpoint(String endpoint, int rank) {
        if (rank == 0) {
            return endpoint;
        }
        Matcher tcp = TCP.matcher(endpoint);
        if (tcp.matches()) {
            int port = Integer.parseInt(tcp.group(2)) + rank;
            if (port > 65_535) {
                throw new IllegalArgumentException("rank " + rank + " of " + endpoint + " would publish on port "
                    + port + ", past 65535");
            }
            return "tcp://" + tcp.group(1) + ":" + port;
        }
        return endpoint + "_dp" + rank;
    }

    private static void check(String endpoint, String what) {
        Objects.requireNonNull(endpoint, what);
        if (endpoint.startsWith("ipc://") && endpoint.length() > "ipc://".length()
            || endpoint.startsWith("inproc://") && endpoint.length() > "inproc://".length()) {
            return;
        }
        Matcher tcp = TCP.matcher(endpoint);
        if (!tcp.matches()) {
            throw new IllegalArgumentException("the KV-event " + what + " '" + endpoint + "' is not tcp://HOST:PORT "
                + "(an engine binds tcp://*:PORT; connect to its address), ipc://PATH or inproc://NAME");
        }
        int port = Integer.parseInt(tcp.group(2));
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("the KV-event " + what + " '" + endpoint + "' has port " + port
                + ", not 1..65535");
        }
    }
}
