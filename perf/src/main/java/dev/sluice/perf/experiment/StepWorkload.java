package dev.sluice.perf.experiment;

import dev.sluice.transport.simulation.SessionPlan;
import dev.sluice.transport.simulation.WorkloadRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Single-request sessions of several policy families, arriving as a Poisson process whose rate steps up every
 * {@code stepNs}: step k offers {@code requestsPerSecond[k]}, each arrival drawn from a family by its request share.
 * Prompts are random text, so no two share a cached block and a request's scheduling cost is its prompt length.
 * Immutable.
 *
 * @param classes           the families.
 * @param stepNs            the length of each step.
 * @param requestsPerSecond the offered rate of each step, in order; the load window is their total length.
 * @param seed              the workload's seed.
 */
public record StepWorkload(List<QualityClass> classes, long stepNs, double[] requestsPerSecond, long seed) {
    public StepWorkload {
        classes = List.copyOf(classes);
        requestsPerSecond = requestsPerSecond.clone();
        if (classes.isEmpty() || stepNs <= 0 || requestsPerSecond.length == 0) {
            throw new IllegalArgumentException("a step workload needs classes, a step length and steps");
        }
        for (double rate : requestsPerSecond) {
            if (!(rate > 0) || !Double.isFinite(rate)) {
                throw new IllegalArgumentException("step rates must be > 0: " + Arrays.toString(requestsPerSecond));
            }
        }
    }

    /** The load window: every step, end to end. */
    public long durationNs() {
        return stepNs * requestsPerSecond.length;
    }

    /** The sessions, in start order; each names its family and has one turn. */
    public List<SessionPlan> generate() {
        WorkloadRandom random = new WorkloadRandom(seed);
        double totalShare = 0;
        for (QualityClass c : classes) {
            totalShare += c.requestShare();
        }
        List<SessionPlan> sessions = new ArrayList<>();
        int n = 0;
        for (int step = 0; step < requestsPerSecond.length; step++) {
            long meanGapNs = Math.max(1, (long) (1e9 / requestsPerSecond[step]));
            long end = (step + 1) * stepNs;
            for (long at = step * stepNs + random.exponentialNs(meanGapNs); at < end;
                 at += random.exponentialNs(meanGapNs)) {
                QualityClass c = pick(random.fraction() * totalShare);
                SessionPlan.Turn turn = new SessionPlan.Turn(random.tokens(random.around(c.promptTokens())),
                    random.around(c.answerTokens()), 0, 0);
                sessions.add(new SessionPlan("q-" + n++, at, -1, new int[0], List.of(turn), false, c.name()));
            }
        }
        return sessions;
    }

    private QualityClass pick(double point) {
        double sum = 0;
        for (QualityClass c : classes) {
            sum += c.requestShare();
            if (point < sum) {
                return c;
            }
        }
        return classes.get(classes.size() - 1);
    }
}
