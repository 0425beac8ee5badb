"""kgres: resolve duplicate entities and denoise LLM-built knowledge graphs inside Neo4j."""

__version__ = "0.1.0"
