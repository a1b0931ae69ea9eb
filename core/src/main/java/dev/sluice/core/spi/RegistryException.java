package dev.sluice.core.spi;

import java.util.Objects;

/** A plugin could not be registered or resolved; stops startup with a message naming the type and the cause. */
public final class RegistryException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind {
        EMPTY_NAME,
        RESERVED_DEFAULT,
        DUPLICATE,
        UNKNOWN_TYPE,
        PROVIDER,
        CATALOG
    }

    private final Kind kind;
    private final String type;

    public RegistryException(Kind kind, String type, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.type = type;
    }

    public Kind kind() {
        return kind;
    }

    /** The plugin type concerned, or {@code null}. */
    public String type() {
        return type;
    }
}
