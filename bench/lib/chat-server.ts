import { loadEvalMessages, loadEvalQueries } from '../../scripts/lib/search-fixtures.js';
import { pick } from './load.js';
import { type BenchServer, startServer } from './processes.js';
import { type Seeded, type StoreEnv, seedStore } from './seed.js';

export interface ChatServer {
  seeded: Seeded;
  server: BenchServer;
  /** The API's base URL and the seeded project's headers. */
  api: string;
  headers: Record<string, string>;
  /**
   * A new message text: one of the labelled set's with a number of its own, as a chat's texts are
   * new (the embedding worker keeps the vectors of texts it embedded lately, D177).
   */
  newText(): string;
  /** The labelled set's queries. */
  queries: string[];
}

/** Parley as `npm start` runs it (local embedder, no rate limit) on a seeded store, for the soak and backlog benchmarks. */
export async function startChatServer(store: StoreEnv): Promise<ChatServer> {
  const seeded = await seedStore(store, 1_000);
  const server = await startServer('src/server.ts', {
    ...(store as Record<string, string>),
    RATE_LIMIT_MAX: '100000000',
  });
  const texts = loadEvalMessages().map((message) => message.text);
  let written = 0;
  return {
    seeded,
    server,
    api: `${server.baseUrl}/api/v1`,
    headers: { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' },
    newText: () => `${pick(texts)} (${++written})`,
    queries: loadEvalQueries().map((query) => query.query),
  };
}
