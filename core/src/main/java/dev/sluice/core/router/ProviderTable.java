package dev.sluice.core.router;

import dev.sluice.core.api.ProviderException;
import dev.sluice.core.spi.RegistryException;
import dev.sluice.core.spi.RouterPluginRegistry;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Providers of one plugin kind by type name, with the registration rules and messages shared by every kind: a name
 * is non-empty, not {@code default}, and registered once; an unknown name lists the linked ones. Not thread-safe:
 * filled on one thread at startup, then only read.
 *
 * @param <P> the provider interface of this kind.
 */
final class ProviderTable<P> {
    private final String kind;
    private final String linkedNoun;
    private final String defaultMeaning;
    private final Map<String, P> providers = new TreeMap<>();

    /**
     * @param kind           the kind in messages, e.g. {@code request-classifier}.
     * @param linkedNoun     the kind in the "linked ... types" list of an unknown-type message.
     * @param defaultMeaning what the reserved {@code default} name stands for.
     */
    ProviderTable(String kind, String linkedNoun, String defaultMeaning) {
        this.kind = kind;
        this.linkedNoun = linkedNoun;
        this.defaultMeaning = defaultMeaning;
    }

    void register(String type, P provider) throws RegistryException {
        Objects.requireNonNull(provider, "provider");
        if (type == null || type.isEmpty()) {
            throw new RegistryException(RegistryException.Kind.EMPTY_NAME, type, kind + " type must not be empty",
                null);
        }
        if (RouterPluginRegistry.DEFAULT_TYPE.equals(type)) {
            throw new RegistryException(RegistryException.Kind.RESERVED_DEFAULT, type,
                kind + " type 'default' is reserved for " + defaultMeaning, null);
        }
        if (providers.containsKey(type)) {
            throw new RegistryException(RegistryException.Kind.DUPLICATE, type,
                kind + " type \"" + type + "\" is already registered", null);
        }
        providers.put(type, provider);
    }

    /** The provider of {@code type}; an unknown type is an error listing the linked types. */
    P require(String type) throws RegistryException {
        P provider = providers.get(type);
        if (provider == null) {
            String linked = providers.isEmpty() ? "<none>" : String.join(", ", providers.keySet());
            throw new RegistryException(RegistryException.Kind.UNKNOWN_TYPE, type,
                "unknown " + kind + " type \"" + type + "\"; linked " + linkedNoun + " types: " + linked, null);
        }
        return provider;
    }

    /** The error for a provider that refused its parameters or failed. */
    RegistryException providerError(String type, Exception cause) {
        String reason = cause instanceof ProviderException ? cause.getMessage() : "provider failed: " + cause;
        return new RegistryException(RegistryException.Kind.PROVIDER, type,
            "invalid parameters for " + kind + " type \"" + type + "\": " + reason, cause);
    }

    Set<String> types() {
        return Collections.unmodifiableSet(providers.keySet());
    }

    boolean isEmpty() {
        return providers.isEmpty();
    }
}
