-- pgvector for semantic search (D40); drizzle-kit does not emit extensions.
CREATE EXTENSION IF NOT EXISTS vector;
