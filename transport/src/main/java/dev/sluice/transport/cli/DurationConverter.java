package dev.sluice.transport.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads {@code 500ms}, {@code 90s}, {@code 5m}, {@code 1h}, a bare {@code 0} or an ISO-8601 {@code PT90S}: every
 * duration option of {@code sluice}, those of added commands included. Stateless.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    /** For picocli, which makes one per option. */
    public DurationConverter() {
    }

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.equals("0")) {
            // A bare 0 needs no unit: "off" for the options that take it.
            return Duration.ZERO;
        }
        try {
            if (text.startsWith("pt")) {
                return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            }
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            long amount = Long.parseLong(text.substring(0, text.length() - 1));
            return switch (text.charAt(text.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new CommandLine.TypeConversionException(usage(value));
            };
        } catch (NumberFormatException | java.time.format.DateTimeParseException | StringIndexOutOfBoundsException e) {
            throw new CommandLine.TypeConversionException(usage(value));
        }
    }

    private static String usage(String value) {
        return "'" + value + "' is not a duration; expected e.g. 500ms, 90s, 5m, 1h or PT90S";
    }
}
