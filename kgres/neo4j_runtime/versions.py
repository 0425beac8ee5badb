"""Pinned versions of the managed runtime. ``neo4j/pom.xml`` must say the same (a test checks)."""

NEO4J_VERSION = "5.26.24"
GDS_VERSION = "2.13.9"   # the only 2.13.x (the last line for Neo4j 5.26 / Java 17) on Maven Central
APOC_VERSION = "5.26.5"  # newest APOC 5.26 that publishes the self-contained `core` jar
JAVA_MAJOR = 17
