package dev.sluice.core.journal;

import java.nio.file.Path;

/**
 * The journal cannot be opened, written or read. The message names the directory and the root cause (for
 * example {@code journal directory /var/sluice/journal is not writable: AccessDeniedException: ...}).
 */
public class JournalException extends Exception {
    private static final long serialVersionUID = 1L;

    public JournalException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code <what> <directory>: <root cause type>: <root cause message>}. */
    static JournalException of(String what, Path directory, Throwable cause) {
        return new JournalException(what + " " + directory.toAbsolutePath() + ": " + rootCause(cause), cause);
    }

    /** The innermost cause as {@code Type: message}, the part an operator can act on (no space, no permission). */
    static String rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
