package dev.sluice.perf.http;

import dev.sluice.core.api.OverloadStatus;
import dev.sluice.core.api.WorkerWithDpRank;
import dev.sluice.core.host.CompositeObserver;
import dev.sluice.core.journal.JournalContext;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalHeader;
import dev.sluice.core.journal.JournalWriter;
import dev.sluice.core.config.QueuePolicy;
import dev.sluice.core.router.ModelRouter;
import dev.sluice.core.router.RouterContext;
import dev.sluice.transport.metrics.RouterMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What serve's own work costs on event loops, for {@code perf/proxy-cpu.sh}, beside {@link NettyProxy}'s bare relay:
 * Netty's HTTP/1.1 codecs on NIO event loops (one per core) in front of one remote engine, doing per request what
 * {@code sluice serve --engine-url} does on its data path. The OpenAI request is parsed
 * ({@code CompletionRequestReader}) and its prompt tokenized (the word tokenizer, serve's default); a
 * {@link ModelRouter} set up as serve sets up a remote engine's (the combining scheduler, serve's metrics observer
 * and, with a journal directory, its Chronicle journal) admits it; the engine's completion stream is read
 * ({@code SseParser}, {@code CompletionStreamAdapter}) and answered as serve answers it (its SSE events or one JSON
 * body, its {@code x-sluice-*} headers); the lifecycle is reported (responding at the first token, completed or
 * aborted). Each request runs on its client connection's event loop from the parse to the last byte: the router's
 * decision hops onto the loop when another thread makes it, and the engine's connection (pooled per loop) is read on
 * the same loop, so no thread waits for another.
 *
 * <p>A measurement, not a server to deploy: it has none of serve's connection limits, read timeouts, engine
 * timeouts, trust rules, large-body gate, health checks or preemption, and answers only the two completion routes.
 * Those cost little per request; what it measures is whether serve's work fits under HAProxy's cost on a loop.
 *
 * <p>With {@code --engine-whole}, a client that asks for a whole answer has the engine asked for one too, as a
 * plain proxy would forward it, instead of its stream: the router then hears of the first token only when the whole
 * answer has come, so the worker's prefill stays booked through the decode. What that trade saves is what it measures.
 *
 * <p>Usage: {@code LoopServe PORT ENGINE_URL [JOURNAL_DIR] [--engine-whole]}; runs until killed.
 */
public final class LoopServe {
    /** The model name serve's scripts use with the mock engine. */
    static final String MODEL = "sluice-sim";
    /** The engine's capacity as serve's defaults book it (--block-size, --engine-max-num-batched-tokens). */
    private static final int BLOCK_SIZE = 64;
    private static final long MAX_NUM_BATCHED_TOKENS = 8192;
    private static final long TOTAL_KV_BLOCKS = 16_384;
    private static final int OVERLOAD_STATUS = OverloadStatus.DEFAULT;
    private static final int MAX_BODY_BYTES = 1 << 20;
    private static final String ENGINE_WHOLE = "--engine-whole";
    /** LoopServe's own arguments, after the floor servers' PORT ENGINE_URL. */
    private static final String OWN_ARGUMENTS = "[JOURNAL_DIR] [" + ENGINE_WHOLE + "]";

    private LoopServe() {
    }

    public static void main(String[] args) throws Exception {
        FloorArgs parsed = FloorArgs.parseOrExit("LoopServe", Arrays.copyOf(args, Math.min(args.length, 2)), true,
            OWN_ARGUMENTS);
        Path journal = null;
        boolean engineWhole = false;
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals(ENGINE_WHOLE)) {
                engineWhole = true;
            } else if (args[i].startsWith("--") || journal != null) {
                System.err.println("argument " + (i + 1) + ": expected JOURNAL_DIR or " + ENGINE_WHOLE + ", got '"
                    + args[i] + "'");
                System.err.println("usage: LoopServe PORT ENGINE_URL (http://host:port) " + OWN_ARGUMENTS);
                System.exit(2);
            } else {
                journal = Path.of(args[i]);
            }
        }
        Served served = Served.start(journal);
        start(new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(), NioIoHandler.newFactory()),
            parsed.port(), parsed.engine(), served, engineWhole);
        System.out.println("loop serve on port " + parsed.port() + " to " + parsed.engine()
            + (journal != null ? ", journal in " + journal : ", no journal")
            + (engineWhole ? ", whole answers from the engine" : ""));
    }

    /** The model's router, its metrics and its journal ({@code null}: none), as serve sets them up. */
    record Served(ModelRouter router, RouterMetrics metrics, JournalWriter journal) implements AutoCloseable {
        static Served start(Path journalDirectory) throws JournalException {
            RouterContext context = new RouterContext().model(MODEL).blockSize(BLOCK_SIZE).overloadStatus(
                OVERLOAD_STATUS).schedulerIdle(RouterContext.SchedulerIdle.COMBINE);
            RouterMetrics metrics = new RouterMetrics(MODEL, context.profile(), OVERLOAD_STATUS);
            JournalWriter journal = journalDirectory == null ? null : JournalWriter.open(new JournalContext(
                journalDirectory), JournalHeader.of(context, "none", "", "default", OptionalDouble.empty(),
                QueuePolicy.FCFS));
            context.observer(journal == null ? metrics : CompositeObserver.of(metrics, journal));
            ModelRouter router = ModelRouter.start(context);
            metrics.attach(router::stats);
            metrics.attachJournal(journal);
            router.workerJoined(new WorkerWithDpRank(0, 0), MAX_NUM_BATCHED_TOKENS, OptionalLong.of(TOTAL_KV_BLOCKS));
            return new Served(router, metrics, journal);
        }

        @Override
        public void close() {
            router.close();
            if (journal != null) {
                journal.close();
            }
        }
    }

    /**
     * Listens on {@code 127.0.0.1:port} (0: any free port) on {@code loops}, sending each admitted request to
     * {@code engine} ({@code http://host:port}), for whole answers as a whole answer when {@code engineWhole};
     * returns the listening channel.
     */
    static Channel start(EventLoopGroup loops, int port, URI engine, Served served, boolean engineWhole)
        throws InterruptedException {
        EnginePools pools = new EnginePools(engine);
        LoopExchange.Shared shared = new LoopExchange.Shared(served.router(), engine, pools, OVERLOAD_STATUS,
            BLOCK_SIZE, engineWhole);
        return new ServerBootstrap()
            .group(loops)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel client) {
                    client.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY_BYTES),
                        new LoopConnection(shared));
                }
            })
            .bind("127.0.0.1", port)
            .sync()
            .channel();
    }
}
