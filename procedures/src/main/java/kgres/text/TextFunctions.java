package kgres.text;

import org.neo4j.procedure.Description;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.UserFunction;

/** kgres.text.*: name normalisation and similarity, callable from Cypher. Null in, null out. */
public class TextFunctions {

    @UserFunction("kgres.text.normName")
    @Description("Returns the conservative normalised key of a name: NFKC, case-folded, punctuation folded, digits kept.")
    public String normName(@Name(value = "name", description = "The name as extracted.") String name) {
        return name == null ? null : Names.normalize(name);
    }

    @UserFunction("kgres.text.tokenSetSimilarity")
    @Description("Returns the Jaccard overlap (0..1) of the normalised token sets of two names.")
    public Double tokenSetSimilarity(
            @Name(value = "a", description = "First name.") String a,
            @Name(value = "b", description = "Second name.") String b) {
        return a == null || b == null ? null : Names.tokenSetSimilarity(a, b);
    }
}
