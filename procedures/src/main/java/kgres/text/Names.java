package kgres.text;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Pure name functions shared by the Cypher functions in {@link TextFunctions}.
 *
 * <p>The normalised key is deliberately conservative: it folds only differences that never change
 * what a name refers to (Unicode compatibility forms, case, quotes, punctuation, spacing). Digits
 * and every word are kept, so "iPhone 7" and "iPhone 8" keep different keys. Richer, per-type keys
 * (honorifics, plurals, acronyms) are the normalize stage's job and are built on top of this one.
 */
public final class Names {
    private Names() {}

    /** NFKC, case-folded, apostrophes and dots dropped inside words, other punctuation as space. */
    public static String normalize(String name) {
        String s = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(s.length());
        boolean space = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp) || Character.getType(cp) == Character.NON_SPACING_MARK) {
                if (space && out.length() > 0) {
                    out.append(' ');
                }
                space = false;
                out.appendCodePoint(cp);
            } else if (isJoiner(cp)) {
                // "O'Brien" -> "obrien", "U.S." -> "us", "Mr." -> "mr": the mark joins, not splits.
                continue;
            } else {
                space = true;
            }
        }
        return out.toString();
    }

    private static boolean isJoiner(int cp) {
        return cp == '\'' || cp == '.' || cp == '\u2019' || cp == '\u2018' || cp == '`' || cp == '\u00B4';
    }

    /** Distinct tokens of the normalised name, in order of first appearance. */
    public static Set<String> tokens(String name) {
        String n = normalize(name);
        Set<String> out = new LinkedHashSet<>();
        if (!n.isEmpty()) {
            out.addAll(Arrays.asList(n.split(" ")));
        }
        return out;
    }

    /**
     * Jaccard overlap of the two names' token sets: |A ∩ B| / |A ∪ B|, 0.0 when both are empty.
     * Word order and repeated words do not matter; a differing digit token lowers the score.
     */
    public static double tokenSetSimilarity(String a, String b) {
        Set<String> ta = tokens(a);
        Set<String> tb = tokens(b);
        if (ta.isEmpty() && tb.isEmpty()) {
            return 0.0;
        }
        Set<String> inter = new LinkedHashSet<>(ta);
        inter.retainAll(tb);
        Set<String> union = new LinkedHashSet<>(ta);
        union.addAll(tb);
        return (double) inter.size() / union.size();
    }
}
