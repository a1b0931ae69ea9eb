package dev.sluice.perf.http;

import java.net.URI;

/**
 * The command line of the floor servers ({@link BareServer}, {@link BareProxy}, {@link NettyProxy}): a port, and for
 * a proxy the engine's base URL. A wrong one is an error that says which argument and what was expected.
 *
 * @param port   the loopback port to listen on.
 * @param engine the engine's base URL ({@code http://host:port}), or {@code null} for a server with no upstream.
 */
record FloorArgs(int port, URI engine) {
    /** As {@link #parse}, for a {@code main}: a wrong command line prints what is wrong and the usage, and exits 2. */
    static FloorArgs parseOrExit(String name, String[] args, boolean withEngine) {
        try {
            return parse(args, withEngine);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: " + name + " PORT" + (withEngine ? " ENGINE_URL (http://host:port)" : ""));
            System.exit(2);
            throw e;
        }
    }

    /**
     * Reads {@code PORT} ({@code withEngine} false) or {@code PORT ENGINE_URL}.
     *
     * @throws IllegalArgumentException naming the wrong argument and what was expected.
     */
    static FloorArgs parse(String[] args, boolean withEngine) {
        if (args.length != (withEngine ? 2 : 1)) {
            throw new IllegalArgumentException("expected " + (withEngine ? 2 : 1) + " arguments, got " + args.length);
        }
        int port;
        try {
            port = Integer.parseInt(args[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PORT: expected a number, got '" + args[0] + "'");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("PORT: expected 0 to 65535, got " + port);
        }
        if (!withEngine) {
            return new FloorArgs(port, null);
        }
        String expected = "ENGINE_URL: expected http://host:port, got '" + args[1] + "'";
        URI engine;
        try {
            engine = URI.create(args[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(expected, e);
        }
        if (!"http".equals(engine.getScheme()) || engine.getHost() == null || engine.getPort() < 0) {
            throw new IllegalArgumentException(expected);
        }
        return new FloorArgs(port, engine);
    }
}
