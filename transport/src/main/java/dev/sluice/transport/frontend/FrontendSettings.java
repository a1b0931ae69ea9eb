package dev.sluice.transport.frontend;

import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.tokenize.PromptEncoder;
import dev.sluice.transport.tokenize.WordPromptEncoder;
import io.helidon.http.HeaderName;
import java.time.Duration;
import java.util.Objects;

/**
 * What a frontend serves and how.
 *
 * @param host             address to bind (loopback unless told otherwise).
 * @param port             port (0: any free port).
 * @param modelName        the model served.
 * @param maxBodyBytes     request bodies above this answer 413.
 * @param defaultMaxTokens tokens generated when a request names none (0: required).
 * @param overloadStatus   the status of capacity rejections.
 * @param tenantHeader     the header naming the tenant, or {@code null}.
 * @param gracePeriod      how long dispatched requests may run on at shutdown.
 * @param router           the router's context (profile, classifier, selector, observer); clock and block size are
 *                         the frontend's to set.
 * @param engines          the engines: the embedded simulated fleet or remote servers.
 * @param journal          where to journal, or {@code null} for no journal.
 * @param trustedSources   the clients whose priority, policy-class, session and tenant headers are honoured;
 *                         {@link TrustedSources#ANY} (the default) honours them from everyone.
 * @param prompts          the model's tokenizer (and chat template): {@link WordPromptEncoder} (the default), or
 *                         a model's own, whose token ids remote engines are then sent.
 */
public record FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                               int overloadStatus, HeaderName tenantHeader, Duration gracePeriod,
                               RouterContext router, EngineSetup engines, JournalSetup journal,
                               TrustedSources trustedSources, PromptEncoder prompts) {
    public FrontendSettings {
        Objects.requireNonNull(prompts, "prompts");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(trustedSources, "trustedSources");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(engines, "engines");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("the body limit must be positive, was " + maxBodyBytes);
        }
    }

    /** Settings with the {@link WordPromptEncoder word tokenizer}. */
    public FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                            int overloadStatus, HeaderName tenantHeader, Duration gracePeriod, RouterContext router,
                            EngineSetup engines, JournalSetup journal, TrustedSources trustedSources) {
        this(host, port, modelName, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, router,
            engines, journal, trustedSources, WordPromptEncoder.INSTANCE);
    }

    /** Settings that trust every client's headers ({@link TrustedSources#ANY}), with the word tokenizer. */
    public FrontendSettings(String host, int port, String modelName, long maxBodyBytes, int defaultMaxTokens,
                            int overloadStatus, HeaderName tenantHeader, Duration gracePeriod, RouterContext router,
                            EngineSetup engines, JournalSetup journal) {
        this(host, port, modelName, maxBodyBytes, defaultMaxTokens, overloadStatus, tenantHeader, gracePeriod, router,
            engines, journal, TrustedSources.ANY);
    }
}
