package dev.sluice.transport.metrics;

/** Why a scrape of an engine's {@code /metrics} gave no load: the {@code reason} label of its failure counter. */
public enum ScrapeFailure {
    /** No connection, a connection lost, no answer in time. */
    UNREACHABLE("unreachable"),
    /** An answer other than 2xx. */
    HTTP_STATUS("http_status"),
    /** A body that is not Prometheus text, or too large. */
    UNPARSABLE("unparsable"),
    /** Prometheus text without the load of the served model (no vLLM or SGLang load metrics for it). */
    NO_LOAD("no_load");

    private final String label;

    ScrapeFailure(String label) {
        this.label = label;
    }

    /** The label value, e.g. {@code http_status}. */
    public String label() {
        return label;
    }
}
