package dev.sluice.transport.cli;

import dev.sluice.transport.cluster.ReplicaCluster;
import dev.sluice.transport.cluster.ReplicaIdentity;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code serve} as one of several replicas in front of the same engines ({@link ReplicaCluster}): off unless
 * {@code --nats-url} is given; a single serve needs no NATS.
 */
final class ReplicaOptions {
    @Option(names = "--nats-url", paramLabel = "nats://HOST:PORT",
        description = {"Run as one of several serve replicas in front of the same engines: each router shares its "
            + "bookings (a request placed on an engine, its prefill, its end) with the others through this "
            + "nats-server and counts theirs, so busy gating and placement see the whole fleet's load. Reconnects "
            + "forever; while NATS is unreachable the replica serves on its own bookings. Default: no NATS."})
    String natsUrl;

    @Option(names = "--replica-id", paramLabel = "ID",
        description = "This replica's name among the others (letters, digits, '_', '-'; default: generated, "
            + "replica-XXXXXXXX). Needs --nats-url.")
    String replicaId;

    @Option(names = "--replica-lease", defaultValue = "3s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "A replica not heard from for this long (killed, cut off) has its bookings expire on the "
            + "others; heartbeats go out three times a lease (default: ${DEFAULT-VALUE}).")
    Duration lease;

    /**
     * Checks the options before anything starts.
     *
     * @throws CommandLine.ParameterException a malformed option (the message names it).
     */
    void validate(CommandLine commandLine) {
        try {
            if (natsUrl == null && replicaId != null) {
                throw new IllegalArgumentException("--replica-id needs --nats-url");
            }
            if (natsUrl != null && !natsUrl.matches("nats://[^\\s/]+:\\d{1,5}")) {
                throw new IllegalArgumentException("--nats-url must be nats://HOST:PORT, was '" + natsUrl + "'");
            }
            if (replicaId != null) {
                ReplicaIdentity.of(replicaId);
            }
            if (lease.toMillis() < 100) {
                throw new IllegalArgumentException("--replica-lease must be at least 100ms, was " + lease);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
    }

    /** Joins the fleet when {@code --nats-url} is given (returning at once if NATS is not up yet), else null. */
    ReplicaCluster join() {
        return natsUrl == null ? null : ReplicaCluster.start(natsUrl, ReplicaIdentity.of(replicaId), lease);
    }

    /** For the ready line: {@code ; replica ID via URL}, or nothing. */
    static String describe(ReplicaCluster cluster) {
        return cluster == null ? "" : "; replica " + cluster.identity().id() + " via " + cluster.link().url();
    }

    /** Closes {@code cluster} unless it is null. */
    static void close(ReplicaCluster cluster) {
        if (cluster != null) {
            cluster.close();
        }
    }
}
