"""The managed local Neo4j: assembled from Maven Central jars, run as a child JVM on loopback.

``install`` builds the runtime into the cache (``<home>/runtime``); ``ManagedServer`` starts, stops
and inspects one server instance whose state lives in its own folder (``<home>/server`` for the
user's server; a temporary folder for the test suite).
"""

from kgres.neo4j_runtime.install import Runtime, install, installed_runtime
from kgres.neo4j_runtime.server import ManagedServer, ServerStatus
from kgres.neo4j_runtime.versions import APOC_VERSION, GDS_VERSION, NEO4J_VERSION

__all__ = ["APOC_VERSION", "GDS_VERSION", "NEO4J_VERSION", "ManagedServer", "Runtime", "ServerStatus",
           "install", "installed_runtime"]
