package dev.sluice.transport.io;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The process's Netty event loops (NIO, one per core, daemon threads {@code sluice-loop-N}), shared by the frontend's
 * client connections and the remote engines' connections. Sharing them is the point: a request's client connection
 * and its engine connection then live on one loop, so the engine's bytes are read and the client's written by one
 * thread, with no hand-over and no wake-up between them. Started on first use; never stopped (its threads are
 * daemons and sleep in {@code epoll_wait} when there is nothing to do). Thread-safe.
 */
public final class EventLoops {
    private EventLoops() {
    }

    private static final class Holder {
        static final EventLoopGroup LOOPS = new MultiThreadIoEventLoopGroup(
            Runtime.getRuntime().availableProcessors(), new DefaultThreadFactory("sluice-loop", true),
            NioIoHandler.newFactory());
    }

    /** The shared loops. */
    public static EventLoopGroup shared() {
        return Holder.LOOPS;
    }

    /** The calling thread's loop when it is one of the shared loops, else the next loop of the group. */
    public static EventLoop current() {
        EventLoopGroup loops = shared();
        for (io.netty.util.concurrent.EventExecutor loop : loops) {
            if (loop.inEventLoop()) {
                return (EventLoop) loop;
            }
        }
        return loops.next();
    }
}
