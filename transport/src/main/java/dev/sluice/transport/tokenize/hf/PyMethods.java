package dev.sluice.transport.tokenize.hf;

import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * The Python methods chat templates call on strings ({@code startswith}, {@code split}, {@code strip}, ...), on
 * dicts ({@code items}, {@code keys}, {@code values}, {@code get}) and slicing ({@code py_slice}, which
 * {@link TemplateRewriter} writes for {@code x[a:b:c]}), with Python's semantics, for Jinjava, which would otherwise
 * look for Java methods of those names. Resolves method calls only; everything else falls through to Jinjava's own
 * resolvers. Stateless and thread-safe.
 */
final class PyMethods extends ELResolver {
    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] paramTypes, Object[] params) {
        if (base == null || method == null) {
            return null;
        }
        Object[] args = params == null ? new Object[0] : params;
        String name = method.toString();
        Object result;
        if (name.equals("py_slice") && (base instanceof CharSequence || base instanceof List<?>)) {
            result = PySlice.slice(base, args);
        } else if (base instanceof CharSequence text) {
            result = PyStrings.call(text.toString(), name, args);
        } else if (base instanceof Map<?, ?> map) {
            result = mapMethod(map, name, args);
        } else {
            return null;
        }
        if (result == PyStrings.UNKNOWN) {
            return null;
        }
        context.setPropertyResolved(true);
        return result;
    }

    private static Object mapMethod(Map<?, ?> map, String name, Object[] args) {
        switch (name) {
            case "items" -> {
                List<Object> items = new ArrayList<>(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    items.add(new ArrayList<>(Arrays.asList(entry.getKey(), entry.getValue())));
                }
                return items;
            }
            case "keys" -> {
                return new ArrayList<>(map.keySet());
            }
            case "values" -> {
                return new ArrayList<>(map.values());
            }
            case "get" -> {
                Object value = map.get(PyStrings.arg(args, 0));
                return value != null || map.containsKey(PyStrings.arg(args, 0)) ? value : PyStrings.arg(args, 1);
            }
            default -> {
                return PyStrings.UNKNOWN;
            }
        }
    }

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
        // Read-only: templates render in an immutable sandbox, as in the engines.
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        return true;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return null;
    }
}
