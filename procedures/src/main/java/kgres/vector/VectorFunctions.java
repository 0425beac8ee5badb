package kgres.vector;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.UserFunction;

/**
 * kgres.vector.*: vectors in the form a client decodes at once. A list of floats crosses Bolt as one
 * tagged value per element, which the client turns into one object per element; the same vector as
 * bytes is one value, read with one array view (numpy.frombuffer). Null in, null out.
 */
public class VectorFunctions {

    @UserFunction("kgres.vector.pack")
    @Description("Returns a list of numbers (a vector property) as little-endian float64 bytes, 8 per element.")
    public byte[] pack(
            @Name(value = "vector", description = "A list of numbers, e.g. a vector property.") Object vector) {
        if (vector == null) {
            return null;
        }
        if (vector instanceof float[] f) {
            ByteBuffer out = buffer(f.length);
            for (float x : f) {
                out.putDouble(x);
            }
            return out.array();
        }
        if (vector instanceof double[] d) {
            ByteBuffer out = buffer(d.length);
            for (double x : d) {
                out.putDouble(x);
            }
            return out.array();
        }
        if (vector instanceof List<?> list) {
            ByteBuffer out = buffer(list.size());
            for (Object x : list) {
                if (!(x instanceof Number n)) {
                    throw new IllegalArgumentException("kgres.vector.pack: not a number in the vector: " + x);
                }
                out.putDouble(n.doubleValue());
            }
            return out.array();
        }
        throw new IllegalArgumentException(
                "kgres.vector.pack: not a list of numbers: " + vector.getClass().getSimpleName());
    }

    private static ByteBuffer buffer(int length) {
        return ByteBuffer.allocate(Math.multiplyExact(length, Double.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
    }
}
