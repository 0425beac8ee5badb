package kgres.retrieve;

import java.util.Comparator;

/** Cypher's ascending ORDER BY for the values retrieval sorts on: numbers by value, strings by code
 * point, nulls last. */
final class Order {
    static final Comparator<Object> VALUES = Order::values;

    private Order() { }

    static int numbers(Number a, Number b) {
        return (a instanceof Long || a instanceof Integer) && (b instanceof Long || b instanceof Integer)
                ? Long.compare(a.longValue(), b.longValue())
                : Double.compare(a.doubleValue(), b.doubleValue());
    }

    private static int values(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return numbers(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return codePoints(x, y);
        }
        return a.getClass().getName().compareTo(b.getClass().getName());  // mixed types: any fixed order
    }

    private static int codePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
