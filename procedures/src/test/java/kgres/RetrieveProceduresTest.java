package kgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import kgres.retrieve.RetrieveProcedures;
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

/** kgres.retrieve.context on a small known graph, called over Bolt as retrieval calls it. (The Python
 * suite checks it against cypher/retrieve_context.cypher on a resolved generated graph.) */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RetrieveProceduresTest {
    private Neo4j neo4j;
    private Driver driver;

    @BeforeAll
    void start() {
        neo4j = Neo4jBuilders.newInProcessBuilder()
                .withDisabledServer()
                .withProcedure(RetrieveProcedures.class)
                .withFixture("CREATE CONSTRAINT FOR (e:Entity) REQUIRE e.id IS UNIQUE")
                .withFixture("CREATE CONSTRAINT FOR ()-[t:RELATES]-() REQUIRE t.id IS UNIQUE")
                .withFixture("""
                    CREATE (holmes:Entity {id: 'e1', name: 'Sherlock Holmes', type: 'PERSON', description: 'detective'}),
                           (street:Entity {id: 'e2', name: 'Baker Street', type: 'GEO'}),
                           (violin:Entity {id: 'e3', name: 'violin', type: 'INSTRUMENT'}),
                           (c1:Chunk {id: 'c1', document_id: 'd', text: '\uD83C\uDFBB Holmes plays'}),
                           (c2:Chunk {id: 'c2', document_id: 'd', text: 'Holmes lodges in Baker Street'}),
                           (m1:Mention {name: 'Sherlock Holmes'}), (m2:Mention {name: 'Mr. Holmes'}),
                           (m3:Mention {name: 'Sherlock Holmes'}), (m4:Mention {name: 'Baker Street'}),
                           (m5:Mention {name: 'violin'}),
                           (m1)-[:REFERS_TO {method: 'rules', run_id: 'r1', confidence: 0.9}]->(holmes),
                           (m2)-[:REFERS_TO {method: 'rules', run_id: 'r1', confidence: 0.8}]->(holmes),
                           (m3)-[:REFERS_TO {method: 'rules', run_id: 'r1', confidence: 0.7}]->(holmes),
                           (m4)-[:REFERS_TO {method: 'ingest'}]->(street),
                           (m5)-[:REFERS_TO {method: 'ingest'}]->(violin),
                           (m1)-[:IN_CHUNK]->(c1), (m5)-[:IN_CHUNK]->(c1), (m2)-[:IN_CHUNK]->(c2),
                           (m3)-[:IN_CHUNK]->(c2), (m4)-[:IN_CHUNK]->(c2),
                           (m1)-[:RELATES {id: 't1', status: 'active', description: 'Holmes lodges there.'}]->(m4),
                           (m2)-[:RELATES {id: 't2', status: 'filtered', description: 'A filtered claim.'}]->(m4),
                           (m1)-[:RELATES {id: 't3', status: 'active', description: 'Holmes plays the violin.'}]->(m5),
                           (holmes)-[:RELATED {predicate: 'LODGES_AT', weight: 2, triple_ids: ['t1', 't2']}]->(street),
                           (holmes)-[:RELATED {predicate: 'PLAYS', triple_ids: ['t3']}]->(violin),
                           (holmes)-[:RELATED {predicate: 'IS', triple_ids: []}]->(holmes),
                           (watson:Entity {id: 'e4', name: 'John Watson', trail_aliases: ['Dr. Watson', 'Watson'],
                                           trail_methods: ['merge', 'ingest'], trail_run_ids: ['r2', 'i1'],
                                           trail_confidences: [0.95, 1.0], trail_mentions: [3, 1]}),
                           (m6:Mention {name: 'a name the stored trail does not have'}),
                           (m6)-[:REFERS_TO {method: 'rules', run_id: 'r1', confidence: 0.5}]->(watson),
                           (:Entity {id: 'e5', name: 'nobody', trail_aliases: [], trail_methods: [], trail_run_ids: [],
                                     trail_confidences: [], trail_mentions: []})
                    """)
                .build();
        driver = GraphDatabase.driver(neo4j.boltURI(), Config.builder().withoutEncryption().build());
    }

    @AfterAll
    void stop() {
        driver.close();
        neo4j.close();
    }

    private Record context(List<String> ids, List<Double> weights, long relations, long chunks, long chars) {
        try (Session s = driver.session()) {
            return s.run("CALL kgres.retrieve.context($ids, $weights, $relations, $chunks, $chars)",
                    Map.of("ids", ids, "weights", weights, "relations", relations, "chunks", chunks,
                            "chars", chars)).single();
        }
    }

    @Test
    void entitiesKeepTheirRankAndCarryTheirAliasTrail() {
        Record r = context(List.of("e1", "missing", "e3"), List.of(0.9, 0.5, 0.25), 10, 10, 100);
        List<Object> entities = r.get("entities").asList();
        assertEquals(2, entities.size());
        Map<?, ?> holmes = (Map<?, ?>) entities.get(0);
        assertEquals("Sherlock Holmes", holmes.get("name"));
        assertEquals("detective", holmes.get("description"));
        assertEquals(0L, holmes.get("rank"));
        assertEquals(2L, ((Map<?, ?>) entities.get(1)).get("rank"));      // the missing id keeps its place
        assertEquals(null, ((Map<?, ?>) entities.get(1)).get("description"));
        // two mentions named Sherlock Holmes, grouped, at the lowest confidence; then Mr. Holmes
        assertEquals(List.of(
                Map.of("alias", "Sherlock Holmes", "method", "rules", "run_id", "r1", "confidence", 0.7, "mentions", 2L),
                Map.of("alias", "Mr. Holmes", "method", "rules", "run_id", "r1", "confidence", 0.8, "mentions", 1L)),
                holmes.get("alias_trail"));
    }

    @Test
    void aStoredTrailIsReadInsteadOfWalkingTheMentions() {
        List<Object> entities = context(List.of("e4", "e5"), List.of(1.0, 1.0), 0, 0, 100).get("entities").asList();
        assertEquals(List.of(
                Map.of("alias", "Dr. Watson", "method", "merge", "run_id", "r2", "confidence", 0.95, "mentions", 3L),
                Map.of("alias", "Watson", "method", "ingest", "run_id", "i1", "confidence", 1.0, "mentions", 1L)),
                ((Map<?, ?>) entities.get(0)).get("alias_trail"));
        assertEquals(List.of(), ((Map<?, ?>) entities.get(1)).get("alias_trail"));
    }

    @Test
    void relationsAmongTheEntitiesStrongestFirstWithActiveDescriptionsOnly() {
        Record r = context(List.of("e1", "e2", "e3"), List.of(1.0, 0.5, 0.5), 10, 0, 100);
        List<Object> relations = r.get("relations").asList();
        assertEquals(2, relations.size());                                    // no self-loop
        Map<?, ?> lodges = (Map<?, ?>) relations.get(0);
        assertEquals("LODGES_AT", lodges.get("predicate"));
        assertEquals(2L, lodges.get("weight"));
        assertEquals(List.of("Holmes lodges there."), lodges.get("descriptions"));  // t2 is filtered
        assertEquals(List.of("t1", "t2"), lodges.get("triple_ids"));
        assertEquals(1.0, ((Map<?, ?>) relations.get(1)).get("weight"));      // missing weight counts as 1.0
        assertEquals(1, context(List.of("e1", "e2", "e3"), List.of(1.0, 0.5, 0.5), 1, 0, 100)
                .get("relations").size());
        assertEquals(0, context(List.of("e1", "e2"), List.of(1.0, 0.5), 0, 0, 100).get("relations").size());
    }

    @Test
    void chunksRankedBySummedWeightOfTheEntitiesTheyMention() {
        Record r = context(List.of("e3", "e1", "e2"), List.of(0.5, 0.4, 0.3), 0, 10, 3);
        List<Object> chunks = r.get("chunks").asList();
        Map<?, ?> first = (Map<?, ?>) chunks.get(0);
        assertEquals("c1", first.get("id"));                                   // violin + holmes: 0.9
        assertEquals(List.of("e3", "e1"), first.get("entities"));
        assertEquals(0.9, (Double) first.get("score"), 1e-12);
        assertEquals("\uD83C\uDFBB H", first.get("text"));                     // three code points
        assertEquals(List.of("e1", "e2"), ((Map<?, ?>) chunks.get(1)).get("entities"));
        assertEquals(1, context(List.of("e1"), List.of(1.0), 0, 1, 3).get("chunks").size());
    }

    @Test
    void misalignedArgumentsAreRefusedClearly() {
        ClientException e = assertThrows(ClientException.class,
                () -> context(List.of("e1", "e2"), List.of(1.0), 10, 10, 100));
        assertTrue(e.getMessage().contains("ids and weights must be lists of one size"), e.getMessage());
        assertEquals(0, context(List.of(), List.of(), 10, 10, 100).get("entities").size());
    }

    /** Snapshot of the public procedures: renaming or dropping one must be a deliberate change. */
    @Test
    void publicProceduresSnapshot() {
        try (Session s = driver.session()) {
            List<String> names = s.run("SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'kgres.' RETURN name "
                    + "ORDER BY name").list(x -> x.get(0).asString());
            assertEquals(List.of("kgres.retrieve.context"), names);
        }
    }
}
