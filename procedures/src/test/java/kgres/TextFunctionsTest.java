package kgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kgres.text.TextFunctions;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

/** The kgres.text.* functions, called over Bolt on an in-process server, as users call them. */
class TextFunctionsTest extends FunctionServerTest {
    @Override
    List<Class<?>> functions() {
        return List.of(Version.class, TextFunctions.class);
    }

    private String norm(String name) {
        return call("RETURN kgres.text.normName($n)", Map.of("n", name)).asString();
    }

    @Test
    void normNameFoldsCasePunctuationAndUnicodeForms() {
        assertEquals("mr sherlock holmes", norm("  Mr.  Sherlock\tHOLMES "));
        assertEquals("obrien", norm("O\u2019Brien"));
        assertEquals("us army", norm("U.S. Army"));
        assertEquals("fi", norm("\uFB01"));              // NFKC ligature
        assertEquals("café", norm("Cafe\u0301"));       // combining accent composes
        assertEquals("baker street", norm("Baker-Street"));
        assertEquals("", norm("..."));
    }

    @Test
    void normNameKeepsDigitsSignificant() {
        assertEquals("iphone 7", norm("iPhone 7"));
        assertTrue(!norm("Apple I").equals(norm("Apple II")));
    }

    @Test
    void tokenSetSimilarityIsJaccardOverNormalisedTokens() {
        double s = call("RETURN kgres.text.tokenSetSimilarity($a, $b)",
                Map.of("a", "Sherlock Holmes", "b", "Mr. Holmes")).asDouble();
        assertEquals(1.0 / 3.0, s, 1e-9);
        assertEquals(1.0, call("RETURN kgres.text.tokenSetSimilarity('Holmes, Sherlock', 'sherlock holmes')",
                Map.of()).asDouble(), 1e-9);
        assertEquals(0.0, call("RETURN kgres.text.tokenSetSimilarity('', '')", Map.of()).asDouble(), 1e-9);
    }

    @Test
    void nullInNullOut() {
        assertNull(call("RETURN kgres.text.normName(null)", Map.of()).asObject());
        assertNull(call("RETURN kgres.text.tokenSetSimilarity(null, 'a')", Map.of()).asObject());
    }

    @Test
    void versionIsTheProjectVersion() {
        assertEquals("0.1.0", call("RETURN kgres.version()", Map.of()).asString());
    }

    /** Snapshot of the public surface: renaming or dropping a function must be a deliberate change. */
    @Test
    void publicFunctionsSnapshot() {
        try (Session s = driver.session()) {
            List<Record> rows = s.run("SHOW FUNCTIONS YIELD name, description WHERE name STARTS WITH 'kgres.' "
                    + "RETURN name, description ORDER BY name").list();
            Map<String, String> got = new TreeMap<>();
            rows.forEach(r -> got.put(r.get("name").asString(), r.get("description").asString()));
            assertEquals(List.of("kgres.text.normName", "kgres.text.tokenSetSimilarity", "kgres.version"),
                    List.copyOf(got.keySet()));
            got.values().forEach(d -> assertTrue(d.endsWith("."), "description is a sentence: " + d));
        }
    }
}
