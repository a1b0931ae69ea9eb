package dev.sluice.transport.cluster;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Who this serve replica is in the fleet: the operator's {@code --replica-id} (or a generated one) and an
 * incarnation drawn at start, so a replica restarted under the same id is a new replica to the others: the bookings
 * of its previous run expire with that run's lease and never mix with the new run's. Immutable.
 *
 * @param id          letters, digits, {@code _} and {@code -}, at most 64 (it is a NATS subject token).
 * @param incarnation random per process start.
 */
public record ReplicaIdentity(String id, long incarnation) {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Validates the id. */
    public ReplicaIdentity {
        Objects.requireNonNull(id, "id");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("--replica-id must be 1 to 64 letters, digits, '_' or '-', was '"
                + id + "'");
        }
    }

    /** {@code id}, or a generated {@code replica-XXXXXXXX} when null, with a fresh incarnation. */
    public static ReplicaIdentity of(String id) {
        String chosen = id != null ? id : "replica-" + HexFormat.of().toHexDigits(RANDOM.nextInt());
        return new ReplicaIdentity(chosen, RANDOM.nextLong());
    }

    /** The key other replicas hold this run's bookings under: {@code id#incarnation}. */
    public String key() {
        return id + "#" + Long.toHexString(incarnation);
    }

    /** The id part of a {@link #key()}. */
    static String idOf(String key) {
        int hash = key.indexOf('#');
        return hash < 0 ? key : key.substring(0, hash);
    }
}
