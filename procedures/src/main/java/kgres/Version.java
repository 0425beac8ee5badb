package kgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.UserFunction;

/** kgres.version(): the plugin's version, so clients can check what the server runs. */
public class Version {
    static final String VERSION = load();

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/kgres/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @UserFunction("kgres.version")
    @Description("Returns the version of the kgres procedures plugin.")
    public String version() {
        return VERSION;
    }
}
