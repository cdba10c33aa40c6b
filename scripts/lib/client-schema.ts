import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';

// The types of the first-party client (packages/client/src/schema.ts) come from the document the app
// serves, built here on an empty in-memory database. The admin API is on, so that its operations
// are typed too (the client's `admin` group); any token does, the document never shows it.

export const CLIENT_SCHEMA_FILE = new URL('../../packages/client/src/schema.ts', import.meta.url);

/** The app's OpenAPI document, with the admin API on unless told otherwise. */
export async function appDocument(env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await runMigrations(database);
    const config = configFrom({ ADMIN_TOKEN: 'document-only-admin-token', EMBEDDINGS: 'none', ...env });
    const app = await buildApp({ config, database, embedder: null });
    try {
      await app.ready();
      return structuredClone(app.swagger()) as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

/** TypeScript declarations of a document's paths, operations and components (openapi-typescript). */
export async function typesOf(document: Record<string, unknown>): Promise<string> {
  const header =
    '// Generated from the Parley OpenAPI document by `npm run client:generate`; do not edit.\n' +
    '// test/client/package.test.ts fails when it is stale.\n\n';
  return header + astToString(await openapiTS(document as never, { alphabetize: true }));
}
