package dev.sluice.transport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing and matching of {@code --trusted-source} ranges. */
class TrustedSourcesTest {
    private static InetSocketAddress peer(String address) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(address), 40_000);
    }

    @Test
    void shouldTrustEveryoneWhenNoRangeIsGiven() throws Exception {
        assertTrue(TrustedSources.of(List.of()).trustsAll());
        assertTrue(TrustedSources.ANY.trusts(peer("203.0.113.9")));
    }

    @Test
    void shouldMatchAddressesByPrefix() throws Exception {
        TrustedSources sources = TrustedSources.of(List.of("10.0.0.0/8", "192.168.1.128/25", "203.0.113.7",
            "fd00::/8"));
        assertTrue(sources.trusts(peer("10.255.1.2")));
        assertTrue(sources.trusts(peer("192.168.1.200")));
        assertFalse(sources.trusts(peer("192.168.1.127")));
        assertTrue(sources.trusts(peer("203.0.113.7")));
        assertFalse(sources.trusts(peer("203.0.113.8")));
        assertTrue(sources.trusts(peer("fd12::1")));
        assertFalse(sources.trusts(peer("127.0.0.1")));
        assertFalse(sources.trusts(peer("::1")));
        assertFalse(sources.trusts(null));
    }

    @Test
    void shouldTrustEverythingUnderASlashZero() throws Exception {
        assertTrue(TrustedSources.of(List.of("0.0.0.0/0")).trusts(peer("198.51.100.1")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/x", "localhost", "dead.beef",
        "example.com/8", "", "fd00::/129", "10.0.0/8", "300.1.1.1"})
    void shouldRefuseWhatIsNotACidrRange(String cidr) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> TrustedSources.of(List.of(cidr)));
        assertEquals("trusted source '" + cidr + "' is not an IP address or CIDR range such as 10.0.0.0/8 or"
            + " fd00::/8", error.getMessage());
    }
}
