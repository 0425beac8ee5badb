package kgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import kgres.embed.EmbedProcedures;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Record;
import org.neo4j.driver.exceptions.ClientException;

/** kgres.embed.context on a small graph whose context embeddings are known, called over Bolt. */
class EmbedProceduresTest extends FunctionServerTest {
    @Override
    List<Class<?>> functions() {
        return List.of();
    }

    @Override
    List<Class<?>> procedures() {
        return List.of(EmbedProcedures.class);
    }

    @Override
    List<String> fixtures() {
        // x and y carry text embeddings of other lengths than 1, z none; the rest are the entities whose
        // context is asked for
        return List.of("CREATE CONSTRAINT FOR (e:Entity) REQUIRE e.id IS UNIQUE", """
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
                       (x)-[:MENTIONS]->(lone),
                       (w:Entity {id: 'w', embedding: [1.0, 1.0]}), (mixed:Entity {id: 'mixed'}),
                       (mixed)-[:RELATED {predicate: 'a'}]->(x), (mixed)-[:RELATED {predicate: 'b'}]->(w)
                """);
    }

    private float[] context(String id) {
        Record r = row("MATCH (e:Entity {id: $id}) RETURN e.context_embedding AS v", Map.of("id", id));
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
        Record r = row("CALL kgres.embed.context($ids) YIELD written, cleared RETURN written, cleared",
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
    void neighboursWithTextEmbeddingsOfTwoLengthsAreAClearErrorAndNothingIsSet() {
        ClientException e = assertThrows(ClientException.class,
                () -> row("CALL kgres.embed.context(['two', 'mixed']) YIELD written RETURN written", Map.of()));
        assertTrue(e.getMessage().contains("text embeddings of different lengths (2 and 3) around entity mixed"),
                e.getMessage());
        assertEquals(null, context("mixed"));
    }

    @Test
    void aMissingListIsAClearError() {
        ClientException e = assertThrows(ClientException.class,
                () -> row("CALL kgres.embed.context(null) YIELD written RETURN written", Map.of()));
        assertTrue(e.getMessage().contains("kgres.embed.context: ids must be a list"), e.getMessage());
    }
}
