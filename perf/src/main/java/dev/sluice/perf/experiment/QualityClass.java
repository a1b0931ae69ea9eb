package dev.sluice.perf.experiment;

import java.util.Objects;

/**
 * One policy family of the scheduling-quality experiment: its DRR weight and its traffic. Requests name the family
 * in {@code x-dynamo-meta-policy-class}; the policy gives it one class, {@code <name>_all}. Immutable.
 *
 * @param name         the family's name.
 * @param quantum      DRR credit per round, in scheduling-cost tokens: the class's weight.
 * @param requestShare the family's share of arrivals (shares are normalised over the families).
 * @param promptTokens mean prompt length (uniform in {@code [mean/2, 3·mean/2]}; never cached, so the DRR charge).
 * @param answerTokens mean answer length, same spread.
 */
public record QualityClass(String name, long quantum, double requestShare, int promptTokens, int answerTokens) {
    public QualityClass {
        Objects.requireNonNull(name, "name");
        if (quantum < 1 || !(requestShare > 0) || promptTokens < 1 || answerTokens < 1) {
            throw new IllegalArgumentException("invalid quality class: " + name);
        }
    }
}
