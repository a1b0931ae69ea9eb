package dev.sluice.transport.engine.http;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Looks an engine's host name up without holding an event loop. Netty's default resolver calls the JDK's lookup on
 * the loop that connects, so a slow or unreachable DNS server would stall every connection of that loop for as long
 * as the lookup takes. Here the JDK's lookup (the hosts file, the JDK's cache and its time to live, as for any other
 * client in the JVM) runs on a virtual thread, and the connect goes on on the loop once the answer is in. An engine
 * URL with an IP address needs no lookup and never gets here ({@link EngineChannels} connects to it resolved).
 */
final class OffLoopLookups extends AddressResolverGroup<InetSocketAddress> {
    /** A host name's addresses, as {@link InetAddress#getAllByName}: never none (a name with none throws). */
    @FunctionalInterface
    interface Lookup {
        InetAddress[] addresses(String host) throws UnknownHostException;
    }

    /** Through the JDK's resolver. */
    static final OffLoopLookups SYSTEM = new OffLoopLookups(InetAddress::getAllByName);

    private final Lookup lookup;

    OffLoopLookups(Lookup lookup) {
        this.lookup = lookup;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor loop) {
        return new Resolver(loop, lookup).asAddressResolver();
    }

    /** One loop's resolver: each lookup on a virtual thread of its own, its answer handed back through the promise. */
    private static final class Resolver extends InetNameResolver {
        private final Lookup lookup;

        Resolver(EventExecutor loop, Lookup lookup) {
            super(loop);
            this.lookup = lookup;
        }

        @Override
        protected void doResolve(String host, Promise<InetAddress> promise) {
            lookUp(host, promise, addresses -> addresses[0]);
        }

        @Override
        protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
            lookUp(host, promise, Arrays::asList);
        }

        private <T> void lookUp(String host, Promise<T> promise, Function<InetAddress[], T> answer) {
            Thread.ofVirtual().name("sluice-engine-lookup").start(() -> {
                try {
                    promise.trySuccess(answer.apply(lookup.addresses(host)));
                } catch (UnknownHostException | RuntimeException e) {
                    promise.tryFailure(e);
                }
            });
        }
    }
}
