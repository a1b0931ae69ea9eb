package dev.sluice.transport.tokenize.hf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** {@code tojson} writes what Python's {@code json.dumps} writes (the expected strings are CPython 3.11's output). */
class PyJsonTest {
    @ParameterizedTest
    @CsvSource({"1.0, 1.0", "0.1, 0.1", "1e-05, 1e-05", "1e16, 1e+16", "123456789.0, 123456789.0",
        "1.5e-7, 1.5e-07", "-0.0, -0.0", "1e22, 1e+22", "12345678901234567890.0, 1.2345678901234567e+19",
        "0.0001, 0.0001", "123.456, 123.456", "2.5e15, 2500000000000000.0", "9999999999999998.0, 9999999999999998.0",
        "5e-324, 5e-324", "1.7976931348623157e308, 1.7976931348623157e+308"})
    void shouldWriteFloatsAsPythonsRepr(double value, String python) {
        assertEquals(python, PyJson.floatRepr(value));
        assertEquals(python, PyJson.dumps(value, null, false, false));
    }

    @Test
    void shouldSeparateAndEscapeAsJsonDumpsWithoutEnsureAscii() {
        assertEquals("{\"b\": 1, \"a\": [true, null, \"x\\u0001\u2028é\\\"\\\\\\t\"], \"c\": {}, \"d\": []}",
            PyJson.dumps(sample("x\u0001\u2028é\"\\\t"), null, false, false));
    }

    @Test
    void shouldIndentSortAndEscapeNonAsciiWhenAsked() {
        assertEquals("{\n  \"a\": [\n    true,\n    null,\n    \"\\u00e9\"\n  ],\n  \"b\": 1,\n  \"c\": {},\n"
            + "  \"d\": []\n}", PyJson.dumps(sample("é"), "  ", true, true));
    }

    private static Map<String, Object> sample(String text) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1L);
        map.put("a", new ArrayList<>(Arrays.asList(true, null, text)));
        map.put("c", Map.of());
        map.put("d", List.of());
        return map;
    }
}
