package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.helidon.http.RequestException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Chunk-size lines: sizes with and without extensions accepted, anything else a 400 naming the problem. */
class ChunkSizeLineTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "51|81", "0|0", "00000051|81", "7fffffff|2147483647", "aB|171", "51;foo=bar|81", "51;foo|81",
        "51 ; foo = bar ;baz|81", "5;name=\"quoted ; \\\" value\"|5", "0;last=yes|0", "5;\tx=y|5"})
    void shouldReadTheSizeAndIgnoreExtensions(String line, int size) {
        assertEquals(size, parse(line));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "zz|" + ChunkSizeLine.NOT_HEX, "-5|" + ChunkSizeLine.NOT_HEX, "5z|" + ChunkSizeLine.NOT_HEX,
        "0x5|" + ChunkSizeLine.NOT_HEX, "FFFFFFFFFFFFFFFFFFFF|" + ChunkSizeLine.TOO_LARGE,
        "80000000|" + ChunkSizeLine.TOO_LARGE, "5;|" + ChunkSizeLine.BAD_EXTENSION,
        "5;=x|" + ChunkSizeLine.BAD_EXTENSION, "5;a=|" + ChunkSizeLine.BAD_EXTENSION,
        "5;a=\"open|" + ChunkSizeLine.BAD_EXTENSION, "5;a b|" + ChunkSizeLine.BAD_EXTENSION,
        "'5 '|" + ChunkSizeLine.BAD_EXTENSION, "'5;a=b\u0007'|" + ChunkSizeLine.BAD_EXTENSION})
    void shouldAnswer400NamingTheProblem(String line, String reason) {
        RequestException e = assertThrows(RequestException.class, () -> parse(line));
        assertEquals(reason, e.getMessage());
        assertEquals(400, e.status().code());
        assertEquals(false, e.keepAlive());
    }

    @Test
    void shouldRefuseAnEmptyLine() {
        assertEquals(ChunkSizeLine.NOT_HEX, assertThrows(RequestException.class, () -> parse("")).getMessage());
    }

    private static int parse(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        return ChunkSizeLine.parse(bytes, bytes.length);
    }
}
