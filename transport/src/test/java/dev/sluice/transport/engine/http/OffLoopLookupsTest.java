package dev.sluice.transport.engine.http;

import static dev.sluice.transport.engine.http.EngineLoops.engine;
import static dev.sluice.transport.engine.http.EngineLoops.loops;
import static dev.sluice.transport.engine.http.EngineLoops.request;
import static dev.sluice.transport.engine.http.EngineLoops.stream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.resolver.AddressResolver;
import io.netty.util.concurrent.Future;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An engine's host name is looked up off the event loop: the loop goes on with its other work while a lookup hangs,
 * the connect goes on when the answer comes, a name with no address fails with the lookup's own reason, and an
 * engine URL by name is served like one by address.
 */
class OffLoopLookupsTest {
    @Test
    void shouldKeepTheLoopFreeWhileALookupHangs() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        OffLoopLookups lookups = new OffLoopLookups(host -> {
            asked.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnknownHostException(host + ": lookup interrupted");
            }
            return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {10, 0, 0, 7})};
        });
        EventLoop loop = loops().get(0);
        try {
            AddressResolver<InetSocketAddress> resolver = lookups.getResolver(loop);
            Future<InetSocketAddress> resolved =
                resolver.resolve(InetSocketAddress.createUnresolved("engine-7.fleet", 8000));
            assertTrue(asked.await(10, TimeUnit.SECONDS), "the lookup started");
            assertEquals("ran", loop.submit(() -> "ran").get(10, TimeUnit.SECONDS),
                "the loop runs other work while the lookup hangs");
            assertFalse(resolved.isDone());
            answer.countDown();
            InetSocketAddress address = resolved.get(10, TimeUnit.SECONDS);
            assertEquals("10.0.0.7", address.getAddress().getHostAddress());
            assertEquals(8000, address.getPort());
        } finally {
            answer.countDown();
            lookups.close();
        }
    }

    @Test
    void shouldFailALookupThatFindsNoAddress() throws Exception {
        OffLoopLookups lookups = new OffLoopLookups(host -> {
            throw new UnknownHostException(host + ": Name or service not known");
        });
        try {
            Future<InetSocketAddress> resolved = lookups.getResolver(loops().get(0))
                .resolve(InetSocketAddress.createUnresolved("nowhere.invalid", 8000));
            assertTrue(resolved.await(10, TimeUnit.SECONDS));
            assertInstanceOf(UnknownHostException.class, resolved.cause());
            assertEquals("nowhere.invalid: Name or service not known", resolved.cause().getMessage());
        } finally {
            lookups.close();
        }
    }

    @Test
    void shouldServeAnEngineNamedByHostName() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream((connection, peer) -> {
            while (peer.readRequest()) {
                peer.write(stream("Hi"));
            }
        }); HttpEngine engine = engine("http://localhost:" + upstream.port(), Duration.ofSeconds(60),
            HttpEngineSettings.DEFAULT_STREAM_IDLE_TIMEOUT)) {
            ExchangeRecorder recorder = new ExchangeRecorder();
            engine.submit(request("named"), recorder);
            assertEquals(List.of("text Hi", "finished STOP 3 1"), recorder.ended());
        }
    }
}
