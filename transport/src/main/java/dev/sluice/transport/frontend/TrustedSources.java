package dev.sluice.transport.frontend;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The client addresses whose privileged headers (priority, policy class, session, tenant) are honoured. With no
 * range configured ({@link #ANY}) every client is trusted, as in Dynamo, for a frontend behind a gateway that sets
 * those headers; with ranges, clients outside them have those headers ignored. Immutable; thread-safe.
 */
public final class TrustedSources {
    /** Trust every client: the default. */
    public static final TrustedSources ANY = new TrustedSources(List.of(), List.of(), new int[0]);

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private final List<String> ranges;
    private final List<byte[]> networks;
    private final int[] prefixes;

    private TrustedSources(List<String> ranges, List<byte[]> networks, int[] prefixes) {
        this.ranges = List.copyOf(ranges);
        this.networks = List.copyOf(networks);
        this.prefixes = prefixes;
    }

    /**
     * Parses CIDR ranges such as {@code 10.0.0.0/8}, {@code 127.0.0.1} (one address) or {@code fd00::/8}; an empty
     * list is {@link #ANY}.
     *
     * @throws IllegalArgumentException a range that is not an IP literal with an optional prefix length in range;
     *                                  the message quotes it.
     */
    public static TrustedSources of(List<String> cidrs) {
        if (cidrs.isEmpty()) {
            return ANY;
        }
        List<byte[]> networks = new ArrayList<>();
        int[] bits = new int[cidrs.size()];
        for (int i = 0; i < cidrs.size(); i++) {
            String cidr = cidrs.get(i).strip();
            int slash = cidr.indexOf('/');
            String host = slash < 0 ? cidr : cidr.substring(0, slash);
            byte[] address = literal(host, cidrs.get(i));
            int max = address.length * 8;
            bits[i] = slash < 0 ? max : prefix(cidr.substring(slash + 1), max, cidrs.get(i));
            networks.add(address);
        }
        return new TrustedSources(cidrs, networks, bits);
    }

    /** True when every client is trusted. */
    public boolean trustsAll() {
        return networks.isEmpty();
    }

    /** The ranges as given. */
    public List<String> ranges() {
        return ranges;
    }

    /** Whether a client at {@code peer} is trusted; an address that is not an IP socket address is not. */
    public boolean trusts(SocketAddress peer) {
        if (trustsAll()) {
            return true;
        }
        if (!(peer instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return false;
        }
        byte[] address = inet.getAddress().getAddress();
        for (int i = 0; i < networks.size(); i++) {
            if (matches(networks.get(i), prefixes[i], address)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(byte[] network, int bits, byte[] address) {
        if (network.length != address.length) {
            return false;
        }
        int whole = bits / 8;
        for (int i = 0; i < whole; i++) {
            if (network[i] != address[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (network[whole] & mask) == (address[whole] & mask);
    }

    private static byte[] literal(String host, String cidr) {
        // Only literals: a host name would make InetAddress resolve it through DNS.
        if (!IPV4.matcher(host).matches() && !IPV6.matcher(host).matches()) {
            throw invalid(cidr);
        }
        try {
            return InetAddress.getByName(host).getAddress();
        } catch (UnknownHostException e) {
            throw invalid(cidr);
        }
    }

    private static int prefix(String text, int max, String cidr) {
        try {
            int bits = Integer.parseInt(text);
            if (bits < 0 || bits > max) {
                throw invalid(cidr);
            }
            return bits;
        } catch (NumberFormatException e) {
            throw invalid(cidr);
        }
    }

    private static IllegalArgumentException invalid(String cidr) {
        return new IllegalArgumentException("trusted source '" + cidr + "' is not an IP address or CIDR range such"
            + " as 10.0.0.0/8 or fd00::/8");
    }
}
