package dev.sluice.transport.engine.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One parsed Prometheus text exposition: its samples in the order they appeared, and a message for every line that
 * could not be read (the lines around it are read all the same). Immutable.
 *
 * @param samples every sample line that parsed.
 * @param errors  one message per malformed line, naming the line number and what was wrong.
 */
public record Exposition(List<Sample> samples, List<String> errors) {
    public Exposition {
        samples = List.copyOf(samples);
        errors = List.copyOf(errors);
    }

    /** The samples of one metric, in order; empty if there are none. */
    public List<Sample> named(String name) {
        List<Sample> named = new ArrayList<>();
        for (Sample sample : samples) {
            if (sample.name().equals(name)) {
                named.add(sample);
            }
        }
        return named;
    }

    /**
     * One sample line: a metric name, its labels and its value ({@code NaN} and the infinities included; a
     * timestamp, when given, is not kept). Immutable.
     *
     * @param name   the metric name, e.g. {@code vllm:num_requests_running}.
     * @param labels label names to their unescaped values.
     * @param value  the value.
     */
    public record Sample(String name, Map<String, String> labels, double value) {
        public Sample {
            Objects.requireNonNull(name, "name");
            labels = Map.copyOf(labels);
        }

        /** The value of label {@code name}, or {@code null} if the sample has no such label. */
        public String label(String name) {
            return labels.get(name);
        }
    }
}
