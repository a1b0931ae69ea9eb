package dev.sluice.transport.testing;

import dev.sluice.core.kv.KvEvent;
import dev.sluice.core.kv.KvEventSink;
import java.util.ArrayList;
import java.util.List;

/** Keeps every KV event in arrival order. Thread-safe. */
public final class RecordingKvSink implements KvEventSink {
    private final List<KvEvent> events = new ArrayList<>();

    @Override
    public synchronized void onKvEvent(KvEvent event) {
        events.add(event);
    }

    public synchronized List<KvEvent> events() {
        return List.copyOf(events);
    }

    public synchronized <T extends KvEvent> List<T> events(Class<T> type) {
        List<T> matching = new ArrayList<>();
        for (KvEvent event : events) {
            if (type.isInstance(event)) {
                matching.add(type.cast(event));
            }
        }
        return matching;
    }

    public synchronized void clear() {
        events.clear();
    }
}
