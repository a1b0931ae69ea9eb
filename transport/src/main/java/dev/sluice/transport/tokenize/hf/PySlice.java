package dev.sluice.transport.tokenize.hf;

import java.util.ArrayList;
import java.util.List;

/** Python's slices, {@code x[start:stop:step]}, of lists and strings (by code point, as Python indexes). */
final class PySlice {
    private PySlice() {
    }

    /**
     * @param args start, stop, step; each {@code null} for omitted.
     * @throws IllegalArgumentException a step of 0, as Python's {@code ValueError}.
     */
    static Object slice(Object base, Object[] args) {
        long step = args.length > 2 && args[2] != null ? ((Number) args[2]).longValue() : 1;
        if (step == 0) {
            throw new IllegalArgumentException("slice step cannot be zero");
        }
        if (base instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (long i : indices(list.size(), args, step)) {
                out.add(list.get((int) i));
            }
            return out;
        }
        String s = base.toString();
        int[] codePoints = s.codePoints().toArray();
        StringBuilder out = new StringBuilder();
        for (long i : indices(codePoints.length, args, step)) {
            out.appendCodePoint(codePoints[(int) i]);
        }
        return out.toString();
    }

    /** The indices a slice selects from a sequence of {@code length}, in order (CPython's PySlice_AdjustIndices). */
    private static long[] indices(int length, Object[] args, long step) {
        Object startArg = args.length > 0 ? args[0] : null;
        Object stopArg = args.length > 1 ? args[1] : null;
        long start = startArg == null ? (step < 0 ? length - 1 : 0) : adjust(((Number) startArg).longValue(),
            length, step);
        long stop = stopArg == null ? (step < 0 ? -1 : length) : adjust(((Number) stopArg).longValue(), length,
            step);
        List<Long> picked = new ArrayList<>();
        for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
            picked.add(i);
        }
        long[] out = new long[picked.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = picked.get(i);
        }
        return out;
    }

    private static long adjust(long index, int length, long step) {
        if (index < 0) {
            index += length;
            if (index < 0) {
                index = step < 0 ? -1 : 0;
            }
        } else if (index >= length) {
            index = step < 0 ? length - 1 : length;
        }
        return index;
    }
}
