package kgres.retrieve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Transaction;
import org.neo4j.internal.kernel.api.RelationshipTraversalCursor;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * kgres.retrieve.context: the same result as cypher/retrieve_context.cypher, read through the
 * kernel API (see {@link Store}). Retrieval runs it on every question; the Cypher file touches only a
 * few thousand records but spends milliseconds in per-row runtime overhead.
 * tests/test_retrieve.py checks that the two agree, value for value and in order.
 */
public class RetrieveProcedures {
    private static final int TRAIL = 10;        // alias trail entries per entity
    private static final int DESCRIPTIONS = 3;  // source triples read per relation

    @Context
    public Transaction tx;

    /** One row: the context of a ranked entity list. */
    public static class ContextRow {
        public List<Map<String, Object>> entities;
        public List<Map<String, Object>> relations;
        public List<Map<String, Object>> chunks;

        ContextRow(List<Map<String, Object>> entities, List<Map<String, Object>> relations,
                   List<Map<String, Object>> chunks) {
            this.entities = entities;
            this.relations = relations;
            this.chunks = chunks;
        }
    }

    @Procedure(name = "kgres.retrieve.context", mode = Mode.READ)
    @Description("Returns the retrieval context of ranked entities: each with its alias trail, the relations "
            + "among them with their active triples' descriptions, and the chunks that mention them, as "
            + "cypher/retrieve_context.cypher does.")
    public Stream<ContextRow> context(
            @Name(value = "ids", description = "Entity ids, best first.") List<String> ids,
            @Name(value = "weights", description = "A weight per id, aligned with ids.") List<Number> weights,
            @Name(value = "relations", description = "At most this many relations.") long relations,
            @Name(value = "chunks", description = "At most this many chunks.") long chunks,
            @Name(value = "chars", description = "Characters of each chunk's text.") long chars)
            throws KernelException {
        if (ids == null || weights == null || ids.size() != weights.size() || weights.contains(null)) {
            throw new IllegalArgumentException(
                    "kgres.retrieve.context: ids and weights must be lists of one size, weights all numbers");
        }
        try (Store store = new Store(((InternalTransaction) tx).kernelTransaction())) {
            return Stream.of(new Reader(store).context(ids, weights, relations, chunks, chars));
        }
    }

    /** One call's reads, with the token ids it needs looked up once. */
    private static final class Reader {
        private final Store store;
        private final int entity;
        private final int mention;
        private final int chunk;
        private final int refersTo;
        private final int inChunk;
        private final int related;
        private final int relates;
        private final int id;
        private final int name;
        private final int type;
        private final int description;
        private final int method;
        private final int runId;
        private final int confidence;
        private final int weight;
        private final int predicate;
        private final int tripleIds;
        private final int status;
        private final int documentId;
        private final int text;
        private final int trailAliases;
        private final int trailMethods;
        private final int trailRunIds;
        private final int trailConfidences;
        private final int trailMentions;

        Reader(Store s) {
            store = s;
            entity = s.label("Entity");
            mention = s.label("Mention");
            chunk = s.label("Chunk");
            refersTo = s.type("REFERS_TO");
            inChunk = s.type("IN_CHUNK");
            related = s.type("RELATED");
            relates = s.type("RELATES");
            id = s.key("id");
            name = s.key("name");
            type = s.key("type");
            description = s.key("description");
            method = s.key("method");
            runId = s.key("run_id");
            confidence = s.key("confidence");
            weight = s.key("weight");
            predicate = s.key("predicate");
            tripleIds = s.key("triple_ids");
            status = s.key("status");
            documentId = s.key("document_id");
            text = s.key("text");
            trailAliases = s.key("trail_aliases");
            trailMethods = s.key("trail_methods");
            trailRunIds = s.key("trail_run_ids");
            trailConfidences = s.key("trail_confidences");
            trailMentions = s.key("trail_mentions");
        }

        ContextRow context(List<String> ids, List<Number> weights, long relations, long chunks, long chars)
                throws KernelException {
            Map<String, Double> weightOf = new HashMap<>();
            List<Long> nodes = new ArrayList<>();
            List<Integer> ranks = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                weightOf.put(ids.get(i), weights.get(i).doubleValue());
                long e = ids.get(i) == null ? Store.NONE : store.nodeBy(entity, id, ids.get(i));
                if (e != Store.NONE) {
                    nodes.add(e);
                    ranks.add(i);
                }
            }
            List<Map<String, Object>> entities = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                entities.add(entity(nodes.get(i), ranks.get(i)));
            }
            return new ContextRow(entities, relations(nodes, relations),
                    chunks(ids, nodes, ranks, weightOf, chunks, chars));
        }

        private Map<String, Object> entity(long e, int rank) {
            Object[] p = store.nodeProperties(e, id, name, type, description);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", p[0]);
            out.put("name", p[1]);
            out.put("type", p[2]);
            out.put("description", p[3]);
            out.put("rank", (long) rank);
            out.put("alias_trail", trail(e));
            return out;
        }

        /**
         * The names the entity's mentions carry, grouped with the decision that linked them: the
         * trail resolve_merge_refresh stored on the entity, or walked from its mentions where none is stored.
         */
        private List<Map<String, Object>> trail(long e) {
            Object[] t = store.nodeProperties(e, trailAliases, trailMethods, trailRunIds, trailConfidences, trailMentions);
            if (t[0] instanceof String[] aliases && t[1] instanceof String[] methods && t[2] instanceof String[] runs
                    && t[3] instanceof double[] confidences && t[4] instanceof long[] mentions) {
                List<Map<String, Object>> out = new ArrayList<>();
                for (int i = 0; i < aliases.length; i++) {
                    out.add(trailRow(aliases[i], methods[i], runs[i], confidences[i], mentions[i]));
                }
                return out;
            }
            if (t[0] instanceof Object[] empty && empty.length == 0) {
                return new ArrayList<>();
            }
            return walkedTrail(e);
        }

        private static Map<String, Object> trailRow(Object alias, Object method, Object runId, Object confidence,
                                                    Object mentions) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("alias", alias);
            row.put("method", method);
            row.put("run_id", runId);
            row.put("confidence", confidence);
            row.put("mentions", mentions);
            return row;
        }

        private List<Map<String, Object>> walkedTrail(long e) {
            Map<List<Object>, Object[]> groups = new HashMap<>();  // [alias, method, run_id] -> [count, min confidence]
            RelationshipTraversalCursor refs = store.walk(0, e, refersTo, Direction.INCOMING);
            while (refs.next()) {
                long m = refs.otherNodeReference();
                if (!store.hasLabel(m, mention)) {
                    continue;
                }
                Object[] r = store.properties(refs, method, runId, confidence);
                List<Object> key = Arrays.asList(store.nodeProperties(m, name)[0], r[0], r[1]);
                Object[] g = groups.computeIfAbsent(key, k -> new Object[] {0L, null});
                g[0] = (long) g[0] + 1;
                if (r[2] instanceof Number c && (g[1] == null || Order.numbers(c, (Number) g[1]) < 0)) {
                    g[1] = c;
                }
            }
            List<Map.Entry<List<Object>, Object[]>> sorted = new ArrayList<>(groups.entrySet());
            sorted.sort(Comparator.<Map.Entry<List<Object>, Object[]>>comparingLong(g -> -(long) g.getValue()[0])
                    .thenComparing(g -> g.getKey().get(0), Order.VALUES)
                    .thenComparing(g -> g.getKey().get(1), Order.VALUES)
                    .thenComparing(g -> g.getKey().get(2), Order.VALUES));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Map.Entry<List<Object>, Object[]> g : sorted.subList(0, Math.min(TRAIL, sorted.size()))) {
                Object confidence = g.getValue()[1] instanceof Number c ? (Object) c.doubleValue() : null;
                out.add(trailRow(g.getKey().get(0), g.getKey().get(1), g.getKey().get(2), confidence, g.getValue()[0]));
            }
            return out;
        }

        /** A RELATED edge between two of the entities, with what the result and its order need. */
        private record Edge(Object source, Object sourceName, Object target, Object targetName, Object predicate,
                            Number weight, Object tripleIds) { }

        /** The strongest RELATED edges among the entities, each with up to three active descriptions. */
        private List<Map<String, Object>> relations(List<Long> nodes, long limit) throws KernelException {
            Set<Long> among = new LinkedHashSet<>(nodes);
            List<Edge> found = new ArrayList<>();
            Map<Long, Object[]> idAndName = new HashMap<>();
            for (long n : among) {
                idAndName.put(n, store.nodeProperties(n, id, name));
            }
            for (long a : among) {
                RelationshipTraversalCursor rels = store.walk(0, a, related, Direction.OUTGOING);
                while (rels.next()) {
                    long b = rels.otherNodeReference();
                    if (b != a && among.contains(b)) {
                        Object[] r = store.properties(rels, predicate, weight, tripleIds);
                        Object[] pa = idAndName.get(a);
                        Object[] pb = idAndName.get(b);
                        found.add(new Edge(pa[0], pa[1], pb[0], pb[1], r[0], r[1] instanceof Number w ? w : 1.0, r[2]));
                    }
                }
            }
            found.sort(Comparator.comparing(Edge::weight, Order::numbers).reversed()
                    .thenComparing(Edge::source, Order.VALUES)
                    .thenComparing(Edge::target, Order.VALUES)
                    .thenComparing(Edge::predicate, Order.VALUES));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Edge r : found.subList(0, (int) Math.max(0, Math.min(limit, found.size())))) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("source", r.source());
                row.put("source_name", r.sourceName());
                row.put("predicate", r.predicate());
                row.put("target", r.target());
                row.put("target_name", r.targetName());
                row.put("weight", r.weight());
                row.put("descriptions", descriptions(r.tripleIds()));
                row.put("triple_ids", r.tripleIds() instanceof String[] s ? List.of(s) : r.tripleIds());
                out.add(row);
            }
            return out;
        }

        private List<String> descriptions(Object ids) throws KernelException {
            List<String> out = new ArrayList<>();
            if (!(ids instanceof String[] tids)) {
                return out;
            }
            for (int i = 0; i < Math.min(DESCRIPTIONS, tids.length); i++) {
                long t = store.relationshipBy(relates, id, tids[i]);
                if (t == Store.NONE) {
                    continue;
                }
                Object[] p = store.relationshipProperties(t, status, description);
                if ("active".equals(p[0]) && p[1] instanceof String d) {
                    out.add(d);
                }
            }
            return out;
        }

        private record Scored(long chunk, Object id, LinkedHashSet<String> about, double score) { }

        /** Chunks mentioning the entities, ranked by the summed weight of the entities each mentions. */
        private List<Map<String, Object>> chunks(List<String> ids, List<Long> nodes, List<Integer> ranks,
                                                 Map<String, Double> weightOf, long limit, long chars) {
            Map<Long, LinkedHashSet<String>> about = new LinkedHashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                String entityId = ids.get(ranks.get(i));
                RelationshipTraversalCursor refs = store.walk(0, nodes.get(i), refersTo, Direction.INCOMING);
                while (refs.next()) {
                    long m = refs.otherNodeReference();
                    if (!store.hasLabel(m, mention)) {
                        continue;
                    }
                    RelationshipTraversalCursor in = store.walk(1, m, inChunk, Direction.OUTGOING);
                    while (in.next()) {
                        long c = in.otherNodeReference();
                        if (store.hasLabel(c, chunk)) {
                            about.computeIfAbsent(c, k -> new LinkedHashSet<>()).add(entityId);
                        }
                    }
                }
            }
            List<Scored> scored = new ArrayList<>();
            about.forEach((c, xs) -> {
                double s = 0.0;
                for (String x : xs) {
                    s += weightOf.get(x);
                }
                scored.add(new Scored(c, store.nodeProperties(c, id)[0], xs, s));
            });
            scored.sort(Comparator.comparingDouble((Scored s) -> -s.score()).thenComparing(Scored::id, Order.VALUES));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Scored s : scored.subList(0, (int) Math.max(0, Math.min(limit, scored.size())))) {
                Object[] p = store.nodeProperties(s.chunk(), documentId, text);
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("id", s.id());
                row.put("document_id", p[0]);
                row.put("text", left(p[1], chars));
                row.put("score", s.score());
                row.put("entities", new ArrayList<>(s.about()));
                out.add(row);
            }
            return out;
        }
    }

    /** Cypher's left(): the first n code points of a string; null stays null. */
    private static Object left(Object text, long n) {
        if (!(text instanceof String s)) {
            return text;
        }
        int count = s.codePointCount(0, s.length());
        return n >= count ? s : s.substring(0, s.offsetByCodePoints(0, (int) n));
    }
}
