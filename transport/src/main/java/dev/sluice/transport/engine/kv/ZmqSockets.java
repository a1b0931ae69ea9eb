package dev.sluice.transport.engine.kv;

import java.util.ArrayList;
import java.util.List;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The options every socket of this package gets. On this JDK, about one JeroMQ 0.6.0 TCP connection in a hundred
 * stalls before its ZMTP handshake completes (measured over loopback: a DEALER's first message never reached its
 * ROUTER within 2 s, 3 times in 300), and JeroMQ gives such a connection up only after its 30 s handshake
 * interval. A one-second handshake interval abandons it sooner, and the socket reconnects by itself (after
 * 100 ms); with it, 300 connections in a row got through. Lingering is off: a closed socket drops what it still
 * holds, as a subscriber or publisher that stops should. Also the receiving and joining both ends share.
 */
final class ZmqSockets {
    static final int HANDSHAKE_MS = 1_000;

    private ZmqSockets() {
    }

    /** One multipart message, or null when none came (at once with {@code ZMQ.DONTWAIT}, else in the timeout). */
    static List<byte[]> receive(ZMQ.Socket socket, int flags) {
        byte[] frame = socket.recv(flags);
        if (frame == null) {
            return null;
        }
        List<byte[]> frames = new ArrayList<>(4);
        frames.add(frame);
        while (socket.hasReceiveMore()) {
            frames.add(socket.recv());
        }
        return frames;
    }

    /** Waits for {@code thread} to end, interrupted or not; an interrupt is kept for the caller. */
    static void join(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static ZMQ.Socket create(ZContext context, SocketType type) {
        ZMQ.Socket socket = context.createSocket(type);
        socket.setLinger(0);
        socket.setHandshakeIvl(HANDSHAKE_MS);
        return socket;
    }
}
