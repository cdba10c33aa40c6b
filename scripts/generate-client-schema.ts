import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CLIENT_SCHEMA_FILE, appDocument, typesOf } from './lib/client-schema.js';

// `npm run client:generate`: rewrites packages/client/src/schema.ts (the types of @parley/client) from the app's OpenAPI document.
await writeFile(CLIENT_SCHEMA_FILE, await typesOf(await appDocument()));
console.log(`wrote ${fileURLToPath(CLIENT_SCHEMA_FILE)}`);
