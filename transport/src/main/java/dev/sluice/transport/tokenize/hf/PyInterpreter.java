package dev.sluice.transport.tokenize.hf;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpreterFactory;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;

/**
 * Jinjava's interpreter, writing a boolean as Python does ({@code True}, {@code False}) where a template prints one.
 * One per render (and per nested scope), as Jinjava makes them; not thread-safe, as Jinjava's are not.
 */
final class PyInterpreter extends JinjavaInterpreter {
    /** Makes these interpreters; stateless and thread-safe. */
    static final InterpreterFactory FACTORY = new InterpreterFactory() {
        @Override
        public JinjavaInterpreter newInstance(JinjavaInterpreter orig) {
            return new PyInterpreter(orig);
        }

        @Override
        public JinjavaInterpreter newInstance(Jinjava application, Context context, JinjavaConfig config) {
            return new PyInterpreter(application, context, config);
        }
    };

    private PyInterpreter(JinjavaInterpreter orig) {
        super(orig);
    }

    private PyInterpreter(Jinjava application, Context context, JinjavaConfig config) {
        super(application, context, config);
    }

    @Override
    public String getAsString(Object object) {
        if (object instanceof Boolean b) {
            return b ? "True" : "False";
        }
        return super.getAsString(object);
    }
}
