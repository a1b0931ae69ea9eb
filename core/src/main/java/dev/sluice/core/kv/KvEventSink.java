package dev.sluice.core.kv;

/** Receives an engine's KV events in order. Implementations must not block the engine. */
@FunctionalInterface
public interface KvEventSink {
    void onKvEvent(KvEvent event);

    /** A sink that drops everything (prefix caching off, or nobody listening). */
    KvEventSink NONE = event -> { };
}
