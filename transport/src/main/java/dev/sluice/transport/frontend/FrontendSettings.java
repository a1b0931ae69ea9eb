package dev.sluice.transport.frontend;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import io.helidon.http.HeaderName;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a frontend serves and how.
 *
 * @param host             address to bind (loopback unless told otherwise).
 * @param port             port (0: any free port).
 * @param maxBodyBytes     request bodies above this answer 413.
 * @param defaultMaxTokens tokens generated when a request names none (0: required).
 * @param overloadStatus   the status of capacity rejections.
 * @param tenantHeader     the header naming the tenant, or {@code null}.
 * @param gracePeriod      how long dispatched requests may run on at shutdown.
 * @param trustedSources   the clients whose priority, policy-class, session and tenant headers are honoured;
 *                         {@link TrustedSources#ANY} (the default) honours them from everyone.
 * @param models           the models served, at least one, each name once; {@code GET /v1/models} lists them in
 *                         this order.
 * @param connections      the connection limit and the read timeouts.
 * @param largeBodies      how many large request bodies are handled at once.
 * @param io               the server: a virtual thread per request, or event loops.
 */
public record FrontendSettings(String host, int port, long maxBodyBytes, int defaultMaxTokens, int overloadStatus,
                               HeaderName tenantHeader, Duration gracePeriod, TrustedSources trustedSources,
                               List<ServedModel> models, ConnectionLimits connections,
                               LargeBodyBudget largeBodies, Io io) {
    /**
     * The server a frontend answers on. Both serve the same routes with the same answers, limits and timeouts.
     */
    public enum Io {
        /**
         * Helidon's server: a virtual thread per request, blocking on each read, waiting for the engine's callbacks
         * (the engine's answer is read on an event loop all the same).
         */
        THREADS,
        /**
         * Netty's event loops ({@link LoopServer}): a request's reads, writes and callbacks as events on its
         * connection's loop, which a remote engine's connection shares; no thread per request.
         */
        LOOPS;

        /**
         * The server of the settings made without one: {@code -Dsluice.io=loops} (the default) or {@code threads},
         * so that the frontend's tests run on either.
         */
        public static Io fromSystemProperty() {
            String value = System.getProperty("sluice.io", "loops");
            return switch (value) {
                case "threads" -> THREADS;
                case "loops" -> LOOPS;
                default -> throw new IllegalArgumentException("-Dsluice.io must be threads or loops, was '" + value
                    + "'");
            };
        }
    }

    public FrontendSettings {
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(largeBodies, "largeBodies");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(trustedSources, "trustedSources");
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        models = List.copyOf(models);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("the body limit must be positive, was " + maxBodyBytes);
        }
        if (models.isEmpty()) {
            throw new IllegalArgumentException("a frontend serves at least one model");
        }
        Set<String> names = new HashSet<>();
        for (ServedModel model : models) {
            if (!names.add(model.name())) {
                throw new IllegalArgumentException("model " + model.name() + " is given twice");
            }
        }
    }

    /** Settings on the server {@link Io#fromSystemProperty()} names. */
    public FrontendSettings(String host, int port, long maxBodyBytes, int defaultMaxTokens, int overloadStatus,
                            HeaderName tenantHeader, Duration gracePeriod, TrustedSources trustedSources,
                            List<ServedModel> models, ConnectionLimits connections, LargeBodyBudget largeBodies) {
        this(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, trustedSources,
            models, connections, largeBodies, Io.fromSystemProperty());
    }

    /** Settings with the {@link ConnectionLimits#defaults() default connection limits} and large-body budget. */
    public FrontendSettings(String host, int port, long maxBodyBytes, int defaultMaxTokens, int overloadStatus,
                            HeaderName tenantHeader, Duration gracePeriod, TrustedSources trustedSources,
                            List<ServedModel> models) {
        this(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, trustedSources,
            models, ConnectionLimits.defaults(), LargeBodyBudget.defaults());
    }

    /** These settings with {@code connections} instead. */
    public FrontendSettings connections(ConnectionLimits connections) {
        return new FrontendSettings(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader,
            gracePeriod, trustedSources, models, connections, largeBodies, io);
    }

    /** These settings with {@code largeBodies} instead. */
    public FrontendSettings largeBodies(LargeBodyBudget largeBodies) {
        return new FrontendSettings(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader,
            gracePeriod, trustedSources, models, connections, largeBodies, io);
    }

    /** These settings with the server {@code io} instead. */
    public FrontendSettings io(Io io) {
        return new FrontendSettings(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader,
            gracePeriod, trustedSources, models, connections, largeBodies, io);
    }

    /** Settings for one model. */
    public FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                            int overloadStatus, HeaderName tenantHeader, Duration gracePeriod,
                            RouterContext router, EngineSetup engines, JournalSetup journal,
                            TrustedSources trustedSources, PromptEncoder prompts) {
        this(host, port, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, trustedSources,
            List.of(new ServedModel(modelName, router, engines, journal, prompts)));
    }

    /** Settings for one model with the {@link WordPromptEncoder word tokenizer}. */
    public FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                            int overloadStatus, HeaderName tenantHeader, Duration gracePeriod, RouterContext router,
                            EngineSetup engines, JournalSetup journal, TrustedSources trustedSources) {
        this(host, port, modelName, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, router,
            engines, journal, trustedSources, WordPromptEncoder.INSTANCE);
    }

    /** Settings for one model that trust every client's headers ({@link TrustedSources#ANY}), word tokenizer. */
    public FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                            int overloadStatus, HeaderName tenantHeader, Duration gracePeriod, RouterContext router,
                            EngineSetup engines, JournalSetup journal) {
        this(host, port, modelName, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, router,
            engines, journal, TrustedSources.ANY);
    }

    /** The first model (with one model, the model). */
    public ServedModel model() {
        return models.getFirst();
    }
}
