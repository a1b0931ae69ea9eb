package dev.sluice.transport.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The run second by second, for the report's time series. Appended by the progress monitor's thread; read after
 * the monitor has closed. Not thread-safe.
 */
final class Timeline {
    /**
     * One second of the run.
     *
     * @param second     seconds since the start.
     * @param inFlight   calls sent and not yet ended, at the end of the second.
     * @param queued     requests waiting in the router's policy queues, at the end of the second.
     * @param parked     requests parked by the classifier, at the end of the second.
     * @param rejected   rejections the clients received during the second.
     * @param completed  calls completed during the second.
     */
    record Sample(int second, long inFlight, long queued, long parked, long rejected, long completed) {
    }

    private final List<Sample> samples = new ArrayList<>();

    void add(Sample sample) {
        samples.add(sample);
    }

    List<Sample> samples() {
        return samples;
    }
}
