package dev.sluice.core.replay;

import dev.sluice.core.journal.JournalRecord;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A journal record as the comparison sees it: its type and its fields by path ({@code error.retryAfterNanos}), the
 * journal's own nested records flattened, without the lifecycle id (a fresh router numbers lifecycles anew) and
 * without what the replay copies from the recording (a deferral and a park both read {@code WAITING}; the
 * overrides of a classification and an abort's cause are inputs). Stateless; reflection, so off the hot path.
 */
record RecordFields(String type, Map<String, String> fields) {
    static RecordFields of(JournalRecord record) {
        Map<String, String> fields = new LinkedHashMap<>();
        switch (record) {
            case JournalRecord.Classified c -> {
                fields.put("timeNs", Long.toString(c.timeNs()));
                fields.put("decision", switch (c.decision()) {
                    case DEFER, PARK -> "WAITING";
                    default -> c.decision().name();
                });
            }
            case JournalRecord.Aborted a -> {
                fields.put("timeNs", Long.toString(a.timeNs()));
                fields.put("stage", String.valueOf(a.stage()));
            }
            default -> flatten("", (Record) record, fields);
        }
        fields.remove("lifecycleId");
        return new RecordFields(record.getClass().getSimpleName(), fields);
    }

    private static void flatten(String prefix, Record value, Map<String, String> into) {
        for (RecordComponent component : value.getClass().getRecordComponents()) {
            Object field;
            try {
                field = component.getAccessor().invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component, e);
            }
            String path = prefix + component.getName();
            if (field instanceof Record nested && nested.getClass().getDeclaringClass() == JournalRecord.class) {
                flatten(path + ".", nested, into);
            } else {
                into.put(path, text(field));
            }
        }
    }

    private static String text(Object field) {
        return switch (field) {
            case long[] longs -> Arrays.toString(longs);
            case int[] ints -> Arrays.toString(ints);
            case null -> "null";
            default -> field.toString();
        };
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(type).append('[');
        fields.forEach((name, value) -> text.append(text.charAt(text.length() - 1) == '[' ? "" : ", ")
            .append(name).append('=').append(value));
        return text.append(']').toString();
    }
}
