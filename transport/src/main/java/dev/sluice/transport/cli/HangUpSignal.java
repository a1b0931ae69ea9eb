package dev.sluice.transport.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGHUP as "reload the policy". Java has no public signal API; this uses {@code sun.misc.Signal} of the
 * {@code jdk.unsupported} module (exported to every module, and named in {@code scripts/jvm.properties}), through
 * reflection, because javac warns at every compiled use of it and the build turns warnings into errors. Installing
 * it replaces the JVM's own SIGHUP handling (which would start a shutdown). The JVM runs the handler on a thread it
 * starts per signal; the action is handed to a virtual thread of its own so that a slow reload never holds it.
 */
final class HangUpSignal {
    private static final Logger LOG = LoggerFactory.getLogger(HangUpSignal.class);

    private HangUpSignal() {
    }

    /**
     * Runs {@code action} on each SIGHUP from now on.
     *
     * @return false when the platform or the JVM ({@code -Xrs}) does not let SIGHUP be handled, or the process started
     *     with SIGHUP ignored ({@code nohup}); it is logged.
     */
    static boolean install(Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object hangUp = signal.getConstructor(String.class).newInstance("HUP");
            Object onSignal = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler},
                (proxy, method, args) -> handle(method, proxy, args, action));
            Object previous = signal.getMethod("handle", signal, handler).invoke(null, hangUp, onSignal);
            if (previous == handler.getField("SIG_IGN").get(null)) {
                // The process started with SIGHUP ignored (nohup does that): the JVM then keeps it ignored and never
                // runs the handler, though installing it seemed to work.
                LOG.warn("SIGHUP is ignored in this process (it was started with SIGHUP ignored, as nohup does), so "
                    + "it cannot reload the policy; reload with --watch-config, or start serve without nohup "
                    + "(setsid, a service manager)");
                return false;
            }
            return true;
        } catch (InvocationTargetException e) {
            LOG.warn("SIGHUP cannot be handled here ({}); reload the policy with --watch-config",
                e.getCause().getMessage());
            return false;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("SIGHUP cannot be handled by this JVM ({}); reload the policy with --watch-config", e.toString());
            return false;
        }
    }

    private static Object handle(Method method, Object proxy, Object[] args, Runnable action) {
        return switch (method.getName()) {
            case "handle" -> {
                Thread.ofVirtual().name("sluice-sighup").start(action);
                yield null;
            }
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> "sluice SIGHUP handler";
        };
    }
}
