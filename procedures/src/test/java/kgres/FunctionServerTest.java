package kgres;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilder;
import org.neo4j.harness.Neo4jBuilders;

/** An in-process server with some of the kgres.* functions and procedures (and a fixture graph), called
 * over Bolt as users call them. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FunctionServerTest {
    private Neo4j neo4j;
    protected Driver driver;

    /** The classes whose functions the server registers. */
    abstract List<Class<?>> functions();

    /** The classes whose procedures the server registers. */
    List<Class<?>> procedures() {
        return List.of();
    }

    /** Cypher statements run once the server is up (the graph the tests read). */
    List<String> fixtures() {
        return List.of();
    }

    @BeforeAll
    void start() {
        Neo4jBuilder builder = Neo4jBuilders.newInProcessBuilder().withDisabledServer();
        for (Class<?> c : functions()) {
            builder = builder.withFunction(c);
        }
        for (Class<?> c : procedures()) {
            builder = builder.withProcedure(c);
        }
        for (String f : fixtures()) {
            builder = builder.withFixture(f);
        }
        neo4j = builder.build();
        driver = GraphDatabase.driver(neo4j.boltURI(), Config.builder().withoutEncryption().build());
    }

    @AfterAll
    void stop() {
        driver.close();
        neo4j.close();
    }

    /** The first column of the single row {@code cypher} returns. */
    protected Value call(String cypher, Map<String, Object> params) {
        return row(cypher, params).get(0);
    }

    /** The single row {@code cypher} returns. */
    protected Record row(String cypher, Map<String, Object> params) {
        try (Session s = driver.session()) {
            return s.run(cypher, params).single();
        }
    }
}
