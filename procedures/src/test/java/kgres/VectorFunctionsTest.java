package kgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import kgres.vector.VectorFunctions;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.exceptions.ClientException;

/** kgres.vector.pack over Bolt: a stored vector comes back as the float64 bytes of its elements. */
class VectorFunctionsTest extends FunctionServerTest {
    @Override
    List<Class<?>> functions() {
        return List.of(VectorFunctions.class);
    }

    private static double[] unpack(byte[] bytes) {
        double[] out = new double[bytes.length / Double.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    @Test
    void aFloat32VectorPropertyComesBackExactly() {
        // db.create.setNodeVectorProperty stores float32: each element widens to float64 exactly
        byte[] b = call("CREATE (n:V) WITH n CALL db.create.setNodeVectorProperty(n, 'v', $v) "
                + "RETURN kgres.vector.pack(n.v)", Map.of("v", List.of(0.1, -2.5, 3.0e-8))).asByteArray();
        assertArrayEquals(new double[] {(float) 0.1, -2.5, (float) 3.0e-8}, unpack(b));
    }

    @Test
    void aFloat64ListPropertyAndAParameterComeBackExactly() {
        List<Object> v = List.of(0.1, -1, 1.0 / 3);
        assertArrayEquals(new double[] {0.1, -1.0, 1.0 / 3},
                unpack(call("CREATE (n:W {v: $v}) RETURN kgres.vector.pack(n.v)", Map.of("v", v)).asByteArray()));
        assertArrayEquals(new double[] {0.1, -1.0, 1.0 / 3},
                unpack(call("RETURN kgres.vector.pack($v)", Map.of("v", v)).asByteArray()));
    }

    @Test
    void nullAndEmptyAndNonNumbers() {
        assertTrue(call("RETURN kgres.vector.pack(null)", Map.of()).isNull());
        assertArrayEquals(new byte[0], call("RETURN kgres.vector.pack([])", Map.of()).asByteArray());
        assertThrows(ClientException.class, () -> call("RETURN kgres.vector.pack(['a'])", Map.of()));
        assertThrows(ClientException.class, () -> call("RETURN kgres.vector.pack('abc')", Map.of()));
    }
}
