package dev.sluice.transport.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of a frontend's {@code GET /metrics}: every sample summed over its labels, by metric name. Tests read
 * counters and gauges by name and check the outcome balance. Immutable.
 */
public final class ScrapedMetrics {
    private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-z_]+)\\{[^}]*} (-?\\d+)$");

    private final Map<String, Long> sums;
    private final String text;

    private ScrapedMetrics(Map<String, Long> sums, String text) {
        this.sums = sums;
        this.text = text;
    }

    /** Scrapes {@code http://127.0.0.1:port/metrics}. */
    public static ScrapedMetrics of(int port) throws IOException {
        RawHttp.Response response = RawHttp.exchange(port, ("GET /metrics HTTP/1.1\r\nHost: x\r\n"
            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        if (response.status() != 200) {
            throw new IllegalStateException("GET /metrics answered " + response.status() + ":\n" + response.text());
        }
        Map<String, Long> sums = new TreeMap<>();
        Matcher sample = SAMPLE.matcher(response.body());
        while (sample.find()) {
            sums.merge(sample.group(1), Long.parseLong(sample.group(2)), Long::sum);
        }
        return new ScrapedMetrics(sums, response.body());
    }

    /** The sum of the metric's samples; 0 when it has none (a counter with no label seen yet). */
    public long get(String name) {
        return sums.getOrDefault(name, 0L);
    }

    /** The value of the first sample of {@code name} whose labels contain {@code label}; 0 when there is none. */
    public long sample(String name, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)} (\\d+)$").matcher(text);
        while (m.find()) {
            if (m.group(1).contains(label)) {
                return Long.parseLong(m.group(2));
            }
        }
        return 0;
    }

    /** Whether the exposition has at least one sample of the metric. */
    public boolean has(String name) {
        return sums.containsKey(name);
    }

    /** Arrived minus completed, rejected and aborted: 0 when every request ended in exactly one outcome. */
    public long unbalanced() {
        return get("sluice_requests_arrived_total") - get("sluice_requests_completed_total")
            - get("sluice_requests_rejected_total") - get("sluice_requests_aborted_total");
    }

    @Override
    public String toString() {
        return text;
    }
}
