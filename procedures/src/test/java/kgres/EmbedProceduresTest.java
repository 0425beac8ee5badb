package kgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import kgres.embed.EmbedProcedures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/** kgres.embed.context on a small graph whose context embeddings are known, called over Bolt. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbedProceduresTest {
    private Neo4j neo4j;
    private Driver driver;

    @BeforeAll
    void start() {
        neo4j = Neo4jBuilders.newInProcessBuilder()
                .withDisabledServer()
                .withProcedure(EmbedProcedures.class)
                .withFixture("CREATE CONSTRAINT FOR (e:Entity) REQUIRE e.id IS UNIQUE")
                // x and y carry text embeddings of other lengths than 1, z none; the rest are the entities
                // whose context is asked for
                .withFixture("""
                    CREATE (x:Entity {id: 'x', embedding: [3.0, 0.0, 0.0]}),
                           (y:Entity {id: 'y', embedding: [0.0, 0.5, 0.0]}),
                           (z:Entity {id: 'z'}),
                           (zero:Entity {id: 'zero', embedding: [0.0, 0.0, 0.0]}),
                           (two:Entity {id: 'two'}), (parallel:Entity {id: 'parallel'}),
                           (loop:Entity {id: 'loop', embedding: [0.0, 0.0, 1.0]}),
                           (bare:Entity {id: 'bare', context_embedding: [1.0, 0.0, 0.0]}),
                           (lone:Entity {id: 'lone', context_embedding: [1.0, 0.0, 0.0]}),
                           (two)-[:RELATED {predicate: 'a'}]->(x), (y)-[:RELATED {predicate: 'b'}]->(two),
                           (parallel)-[:RELATED {predicate: 'a'}]->(x), (parallel)-[:RELATED {predicate: 'b'}]->(x),
                           (parallel)-[:RELATED {predicate: 'c'}]->(y),
                           (loop)-[:RELATED {predicate: 'self'}]->(loop), (loop)-[:RELATED {predicate: 'a'}]->(y),
                           (bare)-[:RELATED {predicate: 'a'}]->(z), (bare)-[:RELATED {predicate: 'b'}]->(zero),
                           (x)-[:MENTIONS]->(lone)
                    """)
                .build();
        driver = GraphDatabase.driver(neo4j.boltURI(), Config.builder().withoutEncryption().build());
    }

    @AfterAll
    void stop() {
        driver.close();
        neo4j.close();
    }

    private Record run(String cypher, Map<String, Object> params) {
        try (Session s = driver.session()) {
            return s.run(cypher, params).single();
        }
    }

    private float[] context(String id) {
        Record r = run("MATCH (e:Entity {id: $id}) RETURN e.context_embedding AS v", Map.of("id", id));
        if (r.get("v").isNull()) {
            return null;
        }
        List<Object> v = r.get("v").asList();
        float[] out = new float[v.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = ((Number) v.get(k)).floatValue();
        }
        return out;
    }

    @Test
    void eachEdgeAddsItsNeighboursUnitEmbeddingAndTheSumIsScaledToLengthOne() {
        Record r = run("CALL kgres.embed.context($ids) YIELD written, cleared RETURN written, cleared",
                Map.of("ids", List.of("two", "parallel", "loop", "bare", "lone", "no such entity")));
        assertEquals(3, r.get("written").asLong());
        assertEquals(2, r.get("cleared").asLong());  // bare and lone had one
        float h = (float) Math.sqrt(0.5);
        // x and y are unit vectors once scaled, whatever their length; each edge counts once
        assertArrayEquals(new float[] {h, h, 0f}, context("two"), 1e-7f);
        float a = (float) (2 / Math.sqrt(5));
        float b = (float) (1 / Math.sqrt(5));
        assertArrayEquals(new float[] {a, b, 0f}, context("parallel"), 1e-7f);  // two edges to x, one to y
        assertArrayEquals(new float[] {0f, 1f, 0f}, context("loop"), 1e-7f);    // its self-loop left out
        // neighbours without a text embedding (z) or with a zero one leave no context: the old one goes
        assertEquals(null, context("bare"));
        assertEquals(null, context("lone"));  // only non-RELATED edges
        assertEquals(null, context("x"));     // not asked for: untouched
    }

    @Test
    void aMissingListIsAClearError() {
        ClientException e = assertThrows(ClientException.class,
                () -> run("CALL kgres.embed.context(null) YIELD written RETURN written", Map.of()));
        assertTrue(e.getMessage().contains("kgres.embed.context: ids must be a list"), e.getMessage());
    }
}
