CREATE TABLE "search_terms" (
	"project_id" text NOT NULL,
	"object_type" text NOT NULL,
	"scope" text NOT NULL,
	"bucket" integer NOT NULL,
	"lexeme" text NOT NULL,
	"documents" bigint NOT NULL,
	"occurrences" bigint NOT NULL,
	CONSTRAINT "search_terms_project_id_object_type_scope_lexeme_bucket_pk" PRIMARY KEY("project_id","object_type","scope","lexeme","bucket")
);
--> statement-breakpoint
-- Hand-written (the rest of this file is drizzle-kit's): the word counts of the rows stored
-- before this migration, as src/modules/search/terms-sql.ts keeps them on write (D140): per
-- project, kind, scope ('' and the row's namespace), bucket and lexeme; lexeme '' counts the rows
-- that have words.
INSERT INTO "search_terms" ("project_id", "object_type", "scope", "bucket", "lexeme", "documents", "occurrences")
SELECT m.project_id, 'message', w.scope, hashtext(m.dialogue_id) & 7, l.lexeme, count(*), sum(l.occurrences)
FROM messages AS m
CROSS JOIN LATERAL (
  SELECT u.lexeme, greatest(1, cardinality(u.positions)) AS occurrences FROM unnest(m.search_vector) AS u
  UNION ALL
  SELECT '', (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(m.search_vector) AS u)
  WHERE length(m.search_vector) > 0
) AS l
CROSS JOIN LATERAL (VALUES (''), (m.namespace)) AS w(scope)
WHERE w.scope IS NOT NULL
GROUP BY m.project_id, w.scope, hashtext(m.dialogue_id) & 7, l.lexeme;
--> statement-breakpoint
INSERT INTO "search_terms" ("project_id", "object_type", "scope", "bucket", "lexeme", "documents", "occurrences")
SELECT d.project_id, 'dialogue', w.scope, hashtext(d.id) & 7, l.lexeme, count(*), sum(l.occurrences)
FROM dialogues AS d
CROSS JOIN LATERAL (
  SELECT u.lexeme, greatest(1, cardinality(u.positions)) AS occurrences FROM unnest(d.search_vector) AS u
  UNION ALL
  SELECT '', (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(d.search_vector) AS u)
  WHERE length(d.search_vector) > 0
) AS l
CROSS JOIN LATERAL (VALUES (''), (d.namespace)) AS w(scope)
WHERE w.scope IS NOT NULL
GROUP BY d.project_id, w.scope, hashtext(d.id) & 7, l.lexeme;
--> statement-breakpoint
INSERT INTO "search_terms" ("project_id", "object_type", "scope", "bucket", "lexeme", "documents", "occurrences")
SELECT m.project_id, 'memory', w.scope, hashtext(m.id) & 7, l.lexeme, count(*), sum(l.occurrences)
FROM memories AS m
CROSS JOIN LATERAL (
  SELECT u.lexeme, greatest(1, cardinality(u.positions)) AS occurrences FROM unnest(m.search_vector) AS u
  UNION ALL
  SELECT '', (SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(m.search_vector) AS u)
  WHERE length(m.search_vector) > 0
) AS l
CROSS JOIN LATERAL (VALUES (''), (m.namespace)) AS w(scope)
WHERE w.scope IS NOT NULL
GROUP BY m.project_id, w.scope, hashtext(m.id) & 7, l.lexeme;
