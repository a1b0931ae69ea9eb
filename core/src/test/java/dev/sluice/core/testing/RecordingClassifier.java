package dev.sluice.core.testing;

import dev.sluice.core.api.Classification;
import dev.sluice.core.api.ClassifyEvent;
import dev.sluice.core.api.ClassifyRequest;
import dev.sluice.core.spi.RequestClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A classifier that records every call ("classify:id", "sent:id", ...) and every event, and decides with a
 * function the test supplies (admit by default). Its records are read on the scheduler thread or after it.
 */
public final class RecordingClassifier implements RequestClassifier {
    private final List<String> calls = new ArrayList<>();
    private final List<ClassifyEvent> events = new ArrayList<>();
    private Function<ClassifyRequest, Classification> decide = Classification::admit;

    /** Sets how {@code classify} answers. */
    public RecordingClassifier deciding(Function<ClassifyRequest, Classification> decision) {
        this.decide = decision;
        return this;
    }

    @Override
    public Classification classify(ClassifyRequest request) {
        calls.add("classify:" + request.requestId());
        return decide.apply(request);
    }

    @Override
    public void onEvent(ClassifyEvent event) {
        String kind = event.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        calls.add(kind + ":" + event.requestId());
        events.add(event.copy());
    }

    public List<String> calls() {
        return List.copyOf(calls);
    }

    public List<ClassifyEvent> events() {
        return List.copyOf(events);
    }

    /** The events of one request id. */
    public List<ClassifyEvent> events(String requestId) {
        return events.stream().filter(e -> e.requestId().equals(requestId)).toList();
    }

    /** How many times {@code classify} ran. */
    public long classifyCalls() {
        return calls.stream().filter(c -> c.startsWith("classify:")).count();
    }
}
