package dev.sluice.transport.engine.sim;

/** Mean of the last {@code size} samples (the mocker's prefix-cache hit rate over the last 1000 admissions). */
final class HitRateWindow {
    private final double[] samples;
    private int next;
    private int count;
    private double sum;

    HitRateWindow(int size) {
        this.samples = new double[size];
    }

    void record(double sample) {
        if (count == samples.length) {
            sum -= samples[next];
        } else {
            count++;
        }
        samples[next] = sample;
        sum += sample;
        next = (next + 1) % samples.length;
    }

    double mean() {
        return count == 0 ? 0.0 : Math.max(0.0, sum / count);
    }
}
