package dev.sluice.transport.cli;

import dev.sluice.core.audit.JournalRun;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;

/** A {@code --since}/{@code --until} bound: an instant, or an offset from the start of each run. */
record TimeBound(Instant instant, Duration offset) {
    /** Parses the option's value; {@code null} stays {@code null}; a bad value is a usage error (exit 2). */
    static TimeBound parse(CommandLine.Model.CommandSpec spec, String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return new TimeBound(Instant.parse(value), null);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return new TimeBound(null, new DurationConverter().convert(value));
            } catch (CommandLine.TypeConversionException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " '" + value
                    + "' is neither an instant (2026-11-29T14:03:00Z) nor an offset (90s, 5m)");
            }
        }
    }

    long schedulerNs(JournalRun run) {
        return instant != null ? run.schedulerTime(instant) : run.startNs() + offset.toNanos();
    }
}
