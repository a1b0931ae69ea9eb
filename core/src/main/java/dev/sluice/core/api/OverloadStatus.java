package dev.sluice.core.api;

/**
 * The HTTP status that answers {@link ErrorClass#CAPACITY_EXHAUSTED}, from {@code DYN_HTTP_OVERLOAD_STATUS_CODE}.
 * The value is trimmed and must be a status code from 200 to 999; anything else (unset, empty, not a number, below
 * 200, 1000 or more) falls back to 529. A configured non-5xx code is still an overload answer, not a client error.
 */
public final class OverloadStatus {
    /** The environment variable, as Dynamo names it. */
    public static final String ENV = "DYN_HTTP_OVERLOAD_STATUS_CODE";
    /** The default overload status ("site is overloaded"). */
    public static final int DEFAULT = 529;

    private OverloadStatus() {
    }

    /** Parses a configured value with the rules above. */
    public static int parse(String configured) {
        if (configured == null) {
            return DEFAULT;
        }
        String text = configured.trim();
        if (text.isEmpty() || text.length() > 3) {
            return DEFAULT;
        }
        int status = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return DEFAULT;
            }
            status = status * 10 + (c - '0');
        }
        return status >= 200 && status <= 999 ? status : DEFAULT;
    }

    /** The overload status from this process's environment; read it once at startup. */
    public static int fromEnvironment() {
        return parse(System.getenv(ENV));
    }
}
