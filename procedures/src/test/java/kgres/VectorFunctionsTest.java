package kgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import kgres.vector.VectorFunctions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/** kgres.vector.pack over Bolt: a stored vector comes back as the float64 bytes of its elements. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorFunctionsTest {
    private Neo4j neo4j;
    private Driver driver;

    @BeforeAll
    void start() {
        neo4j = Neo4jBuilders.newInProcessBuilder().withDisabledServer().withFunction(VectorFunctions.class).build();
        driver = GraphDatabase.driver(neo4j.boltURI(), Config.builder().withoutEncryption().build());
    }

    @AfterAll
    void stop() {
        driver.close();
        neo4j.close();
    }

    private Value call(String cypher, Map<String, Object> params) {
        try (Session s = driver.session()) {
            return s.run(cypher, params).single().get(0);
        }
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
