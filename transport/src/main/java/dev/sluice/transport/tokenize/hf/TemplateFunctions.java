package dev.sluice.transport.tokenize.hf;

import com.hubspot.jinjava.objects.date.StrftimeFormatter;
import java.time.ZonedDateTime;

/**
 * The global functions of the chat-template environment, public because Jinjava calls them by reflection. Not an
 * API. Stateless and thread-safe.
 */
public final class TemplateFunctions {
    private TemplateFunctions() {
    }

    /** {@code raise_exception(message)}: refuses the conversation, as jinja2's {@code TemplateError} does. */
    public static String raiseException(Object message) {
        throw new Raised(String.valueOf(message));
    }

    /** {@code strftime_now(format)}: the local time now, formatted by Python's strftime codes. */
    public static String strftimeNow(String format) {
        return StrftimeFormatter.format(ZonedDateTime.now(), format);
    }

    /** What {@code raise_exception} throws; the renderer turns it into a refusal of the request. */
    static final class Raised extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Raised(String message) {
            super(message, null, false, false);
        }
    }
}
