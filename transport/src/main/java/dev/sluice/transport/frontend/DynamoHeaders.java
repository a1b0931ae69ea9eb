package dev.sluice.transport.frontend;

import dev.sluice.core.api.SessionContext;
import dev.sluice.core.host.AdmissionRequest;
import dev.sluice.transport.openai.OpenAiException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Dynamo's request headers, read into an {@link AdmissionRequest}: the policy class, the session (id, parent,
 * final), the priority jump and the strict priority, and a tenant header when configured. A malformed value is a
 * 400 naming the header. These headers raise priority or pick whose budget is spent, so the endpoint reads them
 * only from trusted clients (see {@link TrustedSources}). Stateless.
 */
public final class DynamoHeaders {
    static final HeaderName REQUEST_ID = HeaderNames.create("x-request-id");
    static final HeaderName POLICY_CLASS = HeaderNames.create("x-dynamo-meta-policy-class");
    static final HeaderName SESSION_ID = HeaderNames.create("x-dynamo-session-id");
    static final HeaderName PARENT_SESSION_ID = HeaderNames.create("x-dynamo-parent-session-id");
    static final HeaderName SESSION_FINAL = HeaderNames.create("x-dynamo-session-final");
    static final HeaderName PRIORITY = HeaderNames.create("x-dynamo-request-priority");
    static final HeaderName STRICT_PRIORITY = HeaderNames.create("x-dynamo-request-strict-priority");
    /** Headers HTTP defines, which cannot name a tenant. */
    private static final Set<String> RESERVED = Set.of("host", "content-type", "content-length", "transfer-encoding",
        "connection", "authorization", "accept", "user-agent", "cookie", "expect", "te", "upgrade", "keep-alive",
        "proxy-authorization", "trailer");
    /**
     * Checks that {@code name} can name the tenant: a header sluice reads for something else (the request id,
     * Dynamo's headers) or that HTTP itself defines would mean two things at once.
     *
     * @throws IllegalArgumentException naming the header and why.
     */
    public static void checkTenantHeader(String name) {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        if (lower.isEmpty() || !lower.matches("[!#$%&'*+.^_`|~0-9a-z-]+")) {
            throw new IllegalArgumentException("--tenant-header must be an HTTP header name, was '" + name + "'");
        }
        if (lower.equals(REQUEST_ID.lowerCase()) || lower.startsWith("x-dynamo-") || lower.startsWith("x-sluice-")
            || RESERVED.contains(lower)) {
            throw new IllegalArgumentException("--tenant-header " + name + " is a header sluice or HTTP already uses "
                + "for something else; choose another, e.g. x-tenant-id");
        }
    }

    private static final HeaderName[] PRIVILEGED = {POLICY_CLASS, SESSION_ID, PARENT_SESSION_ID, SESSION_FINAL,
        PRIORITY, STRICT_PRIORITY};

    private DynamoHeaders() {
    }

    /** Reads the headers into {@code builder}; {@code tenantHeader} may be {@code null} (no tenant). */
    static void apply(Headers headers, AdmissionRequest.Builder builder, HeaderName tenantHeader)
        throws OpenAiException {
        value(headers, POLICY_CLASS).ifPresent(builder::policyClass);
        Optional<String> session = value(headers, SESSION_ID);
        if (session.isPresent()) {
            builder.sessionContext(new SessionContext(session.get(), value(headers, PARENT_SESSION_ID).orElse(null),
                finality(headers), SessionContext.InputTrigger.OTHER));
        }
        Optional<String> jump = value(headers, PRIORITY);
        if (jump.isPresent()) {
            builder.priorityJump(number(jump.get(), PRIORITY));
        }
        Optional<String> strict = value(headers, STRICT_PRIORITY);
        if (strict.isPresent()) {
            builder.strictPriority(strictPriority(strict.get()));
        }
        if (tenantHeader != null) {
            value(headers, tenantHeader).ifPresent(builder::tenant);
        }
    }

    /**
     * How many of the headers {@link #apply} reads are present (with any value): those an untrusted client's
     * request has ignored. The request id is not among them; it grants nothing.
     */
    static int privileged(Headers headers, HeaderName tenantHeader) {
        int present = 0;
        for (HeaderName name : PRIVILEGED) {
            if (headers.contains(name)) {
                present++;
            }
        }
        return tenantHeader != null && headers.contains(tenantHeader) ? present + 1 : present;
    }

    private static Optional<String> value(Headers headers, HeaderName name) {
        return headers.first(name).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static SessionContext.Finality finality(Headers headers) throws OpenAiException {
        Optional<String> value = value(headers, SESSION_FINAL);
        if (value.isEmpty()) {
            return SessionContext.Finality.UNSPECIFIED;
        }
        return switch (value.get().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> SessionContext.Finality.FINAL;
            case "false", "0" -> SessionContext.Finality.CONTINUING;
            default -> throw invalid(SESSION_FINAL, "must be true or false");
        };
    }

    private static double number(String text, HeaderName name) throws OpenAiException {
        try {
            double value = Double.parseDouble(text);
            if (!Double.isFinite(value)) {
                throw invalid(name, "must be a finite number");
            }
            return value;
        } catch (NumberFormatException e) {
            throw invalid(name, "must be a number");
        }
    }

    private static int strictPriority(String text) throws OpenAiException {
        try {
            int value = Integer.parseInt(text);
            if (value < 0) {
                throw invalid(STRICT_PRIORITY, "must be a non-negative integer");
            }
            return value;
        } catch (NumberFormatException e) {
            throw invalid(STRICT_PRIORITY, "must be a non-negative integer");
        }
    }

    /** The longest {@code x-request-id} taken. */
    static final int MAX_REQUEST_ID = 256;

    /**
     * The client's {@code x-request-id}, its own label for the request, or {@code null} when it sent none. Sluice
     * keys the request on an id of its own, so a label need not be unique.
     *
     * @throws OpenAiException 400 {@code invalid_header} when the header is there but empty, longer than
     *                         {@value #MAX_REQUEST_ID} characters, or has other than visible ASCII characters.
     */
    static String clientRequestId(Headers headers) throws OpenAiException {
        Optional<String> given = headers.first(REQUEST_ID);
        if (given.isEmpty()) {
            return null;
        }
        String id = given.get().strip();
        if (id.isEmpty()) {
            throw invalid(REQUEST_ID, "must not be empty; leave it out to have one made");
        }
        if (id.length() > MAX_REQUEST_ID) {
            throw invalid(REQUEST_ID, "must be at most " + MAX_REQUEST_ID + " characters, was " + id.length());
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw invalid(REQUEST_ID, "must be visible ASCII characters only (no spaces or controls)");
            }
        }
        return id;
    }

    private static OpenAiException invalid(HeaderName header, String what) {
        return new OpenAiException(400, "header " + header.lowerCase() + " " + what,
            null, "invalid_header");
    }
}
