package dev.sluice.transport.budget;

import java.nio.charset.StandardCharsets;

/**
 * A budget's key as NATS key-value allows it ({@code [-/_=.A-Za-z0-9]}, no empty tokens): letters, digits, {@code -},
 * {@code _} and {@code /} as they are, every other byte of the UTF-8 form as {@code =XX}, so that distinct budgets
 * never share a key. Stateless.
 */
final class BudgetKeys {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private BudgetKeys() {
    }

    static String encode(String key) {
        StringBuilder out = new StringBuilder(key.length() + 8);
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                || c == '/') {
                out.append((char) c);
            } else {
                out.append('=').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return out.toString();
    }
}
