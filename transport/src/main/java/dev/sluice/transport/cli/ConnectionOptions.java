package dev.sluice.transport.cli;

import dev.sluice.transport.frontend.ConnectionLimits;
import dev.sluice.transport.frontend.FrontendSettings;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** {@code serve}'s connection limit and read timeouts ({@link ConnectionLimits}). */
final class ConnectionOptions {
    @Option(names = "--http-max-connections", paramLabel = "N",
        description = {"Client connections served at once; one more is answered 503 too_many_connections and closed "
            + "(and past 16 such at once, waits in the accept backlog). Default: 10000, or fewer when the file-"
            + "descriptor limit (ulimit -n) allows fewer: (limit - 144) / 2, two descriptors per connection (the "
            + "client's and an engine's) and 144 kept for the rest. A value over that is refused."})
    Integer maxConnections;

    @Option(names = "--http-header-timeout", defaultValue = "10s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "The longest a request line and headers may take to arrive (from the accept for a "
            + "connection's first request); past it the connection is closed unanswered (default: ${DEFAULT-VALUE}).")
    Duration headerTimeout;

    @Option(names = "--http-body-timeout", defaultValue = "60s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "The longest a request body may take to arrive after its headers; past it the connection is "
            + "closed unanswered (default: ${DEFAULT-VALUE}).")
    Duration bodyTimeout;

    @Option(names = "--http-idle-timeout", defaultValue = "75s", paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long a kept-alive connection may wait for its next request before it is closed "
            + "(default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(names = "--http-io", defaultValue = "loops", paramLabel = "MODE",
        description = "How requests are served: loops (Netty's event loops, one per core, shared with the remote "
            + "engines' connections: a request is read, admitted, sent to its engine, streamed back and answered on "
            + "one loop, with no thread per request) or threads (Helidon's server, a virtual thread per request, "
            + "blocking on each read; it costs more CPU per request). Same routes, answers, limits and timeouts. "
            + "Default: ${DEFAULT-VALUE}.")
    String io;

    /**
     * The server asked for.
     *
     * @throws CommandLine.ParameterException neither {@code threads} nor {@code loops}.
     */
    FrontendSettings.Io io(CommandLine commandLine) {
        return switch (io) {
            case "threads" -> FrontendSettings.Io.THREADS;
            case "loops" -> FrontendSettings.Io.LOOPS;
            default -> throw new CommandLine.ParameterException(commandLine, "--http-io must be threads or loops, "
                + "was '" + io + "'");
        };
    }

    /**
     * The limits given, checked.
     *
     * @throws CommandLine.ParameterException a value out of range (the message names the option).
     */
    ConnectionLimits limits(CommandLine commandLine) {
        timeout(commandLine, "--http-header-timeout", headerTimeout);
        timeout(commandLine, "--http-body-timeout", bodyTimeout);
        timeout(commandLine, "--http-idle-timeout", idleTimeout);
        long descriptors = ConnectionLimits.descriptorLimit();
        int fit = ConnectionLimits.maxConnectionsFor(descriptors);
        if (maxConnections == null && fit < 1) {
            throw new CommandLine.ParameterException(commandLine, "the file-descriptor limit (ulimit -n) is "
                + descriptors + ": too low to serve one connection with --http-max-connections' reserve of "
                + (ConnectionLimits.RESERVED_DESCRIPTORS + ConnectionLimits.OVER_CAP_SLOTS) + "; raise it");
        }
        int max = maxConnections == null ? ConnectionLimits.defaultMaxConnections(descriptors) : maxConnections;
        if (max < 1) {
            throw new CommandLine.ParameterException(commandLine, "--http-max-connections must be at least 1, was "
                + max);
        }
        if (max > fit) {
            throw new CommandLine.ParameterException(commandLine, "--http-max-connections " + max + " is more than "
                + "the file-descriptor limit (ulimit -n " + descriptors + ") allows: at most " + Math.max(fit, 0)
                + " (two descriptors per connection, " + (ConnectionLimits.RESERVED_DESCRIPTORS
                + ConnectionLimits.OVER_CAP_SLOTS) + " kept for the rest); raise the limit or lower the option");
        }
        return new ConnectionLimits(max, headerTimeout, bodyTimeout, idleTimeout);
    }

    private static void timeout(CommandLine commandLine, String option, Duration value) {
        if (!ConnectionLimits.validTimeout(value)) {
            throw new CommandLine.ParameterException(commandLine, option + " must be above 0 and at most 1h, was "
                + value);
        }
    }
}
