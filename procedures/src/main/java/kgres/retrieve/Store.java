package kgres.retrieve;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Direction;
import org.neo4j.internal.kernel.api.CursorFactory;
import org.neo4j.internal.kernel.api.EntityCursor;
import org.neo4j.internal.kernel.api.IndexQueryConstraints;
import org.neo4j.internal.kernel.api.IndexReadSession;
import org.neo4j.internal.kernel.api.NodeCursor;
import org.neo4j.internal.kernel.api.NodeValueIndexCursor;
import org.neo4j.internal.kernel.api.PropertyCursor;
import org.neo4j.internal.kernel.api.PropertyIndexQuery;
import org.neo4j.internal.kernel.api.Read;
import org.neo4j.internal.kernel.api.RelationshipScanCursor;
import org.neo4j.internal.kernel.api.RelationshipTraversalCursor;
import org.neo4j.internal.kernel.api.RelationshipValueIndexCursor;
import org.neo4j.internal.kernel.api.TokenRead;
import org.neo4j.internal.schema.IndexDescriptor;
import org.neo4j.internal.schema.IndexType;
import org.neo4j.internal.schema.SchemaDescriptor;
import org.neo4j.internal.schema.SchemaDescriptors;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.storageengine.api.PropertySelection;
import org.neo4j.storageengine.api.RelationshipSelection;
import org.neo4j.token.api.TokenConstants;
import org.neo4j.values.storable.Value;
import org.neo4j.values.storable.Values;

/**
 * Reads for kgres.retrieve.context through the kernel API, with cursors allocated once per call
 * and index sessions opened once: the core API (Node, Relationship) allocates cursors and looks up
 * tokens on every access, which made a first version of the procedure slower than the Cypher file.
 * Not thread-safe; one instance per procedure call. Close it to release the cursors.
 */
final class Store implements AutoCloseable {
    static final long NONE = -1;

    private final Read read;
    private final KernelTransaction ktx;
    private final TokenRead tokens;
    private final NodeCursor node;
    private final NodeCursor other;
    private final RelationshipTraversalCursor[] traversal;
    private final RelationshipScanCursor relationship;
    private final PropertyCursor properties;
    private final NodeValueIndexCursor nodeSeek;
    private final RelationshipValueIndexCursor relationshipSeek;
    private final Map<SchemaDescriptor, IndexReadSession> sessions = new HashMap<>();

    Store(KernelTransaction ktx) {
        this.ktx = ktx;
        this.read = ktx.dataRead();
        this.tokens = ktx.tokenRead();
        CursorFactory cursors = ktx.cursors();
        node = cursors.allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
        other = cursors.allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
        traversal = new RelationshipTraversalCursor[] {
            cursors.allocateRelationshipTraversalCursor(ktx.cursorContext(), ktx.memoryTracker()),
            cursors.allocateRelationshipTraversalCursor(ktx.cursorContext(), ktx.memoryTracker())};
        relationship = cursors.allocateRelationshipScanCursor(ktx.cursorContext(), ktx.memoryTracker());
        properties = cursors.allocatePropertyCursor(ktx.cursorContext(), ktx.memoryTracker());
        nodeSeek = cursors.allocateNodeValueIndexCursor(ktx.cursorContext(), ktx.memoryTracker());
        relationshipSeek = cursors.allocateRelationshipValueIndexCursor(ktx.cursorContext(), ktx.memoryTracker());
    }

    int label(String name) {
        return tokens.nodeLabel(name);
    }

    int type(String name) {
        return tokens.relationshipType(name);
    }

    int key(String name) {
        return tokens.propertyKey(name);
    }

    /** The node with ``label`` whose unique ``key`` is ``value`` (a range index backs it), or NONE. */
    long nodeBy(int label, int key, String value) throws KernelException {
        if (label == TokenConstants.NO_TOKEN || key == TokenConstants.NO_TOKEN) {
            return NONE;
        }
        read.nodeIndexSeek(ktx.queryContext(), session(SchemaDescriptors.forLabel(label, key)), nodeSeek,
                IndexQueryConstraints.unconstrained(), PropertyIndexQuery.exact(key, Values.stringValue(value)));
        return nodeSeek.next() ? nodeSeek.nodeReference() : NONE;
    }

    /** The relationship of ``type`` whose unique ``key`` is ``value``, or NONE. */
    long relationshipBy(int type, int key, String value) throws KernelException {
        if (type == TokenConstants.NO_TOKEN || key == TokenConstants.NO_TOKEN) {
            return NONE;
        }
        read.relationshipIndexSeek(ktx.queryContext(), session(SchemaDescriptors.forRelType(type, key)),
                relationshipSeek, IndexQueryConstraints.unconstrained(),
                PropertyIndexQuery.exact(key, Values.stringValue(value)));
        return relationshipSeek.next() ? relationshipSeek.relationshipReference() : NONE;
    }

    /** A read session on the range index of ``schema``, opened once per Store. */
    private IndexReadSession session(SchemaDescriptor schema) throws KernelException {
        IndexReadSession session = sessions.get(schema);
        if (session == null) {
            session = read.indexReadSession(rangeIndex(schema));
            sessions.put(schema, session);
        }
        return session;
    }

    private IndexDescriptor rangeIndex(SchemaDescriptor schema) {
        Iterator<IndexDescriptor> it = ktx.schemaRead().index(schema);
        while (it.hasNext()) {
            IndexDescriptor index = it.next();
            if (index.getIndexType() == IndexType.RANGE) {
                return index;
            }
        }
        throw new IllegalStateException("kgres.retrieve.context needs the range index of " + schema
                + " (kgres schema creates it)");
    }

    /** Node properties ``keys`` as Java values (null where absent). */
    Object[] nodeProperties(long id, int... keys) {
        read.singleNode(id, node);
        return propertiesAt(node, keys);
    }

    boolean hasLabel(long id, int label) {
        read.singleNode(id, other);
        return other.next() && other.hasLabel(label);
    }

    /** Relationship properties ``keys`` of a relationship found by id. */
    Object[] relationshipProperties(long id, int... keys) {
        read.singleRelationship(id, relationship);
        return propertiesAt(relationship, keys);
    }

    /** Properties ``keys`` of the entity a freshly positioned cursor finds (all null if none). */
    private Object[] propertiesAt(EntityCursor cursor, int[] keys) {
        if (!cursor.next()) {
            return new Object[keys.length];
        }
        cursor.properties(properties, PropertySelection.selection(keys));
        return collect(keys);
    }

    /** The relationships of ``type`` at node ``from``: the cursor at ``level`` (0 or 1: walks nest two deep). */
    RelationshipTraversalCursor walk(int level, long from, int type, Direction direction) {
        read.singleNode(from, node);
        RelationshipTraversalCursor cursor = traversal[level];
        if (type != TokenConstants.NO_TOKEN && node.next()) {  // NO_TOKEN (-1) would select every type
            node.relationships(cursor, RelationshipSelection.selection(type, direction));
        } else {
            cursor.close();
        }
        return cursor;
    }

    /** Properties ``keys`` of the relationship a walk's cursor is on. */
    Object[] properties(RelationshipTraversalCursor cursor, int... keys) {
        cursor.properties(properties, PropertySelection.selection(keys));
        return collect(keys);
    }

    private Object[] collect(int[] keys) {
        Object[] out = new Object[keys.length];
        while (properties.next()) {
            int k = properties.propertyKey();
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] == k) {
                    Value v = properties.propertyValue();
                    out[i] = v == null || v == Values.NO_VALUE ? null : v.asObjectCopy();
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        node.close();
        other.close();
        for (RelationshipTraversalCursor c : traversal) {
            c.close();
        }
        relationship.close();
        properties.close();
        nodeSeek.close();
        relationshipSeek.close();
    }
}
