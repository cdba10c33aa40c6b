import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'drizzle-orm';
import { buildApp } from '../../src/app.js';
import { type Config, configFrom } from '../../src/config.js';
import type { HostLookup } from '../../src/modules/webhooks/url-safety.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import type { Summarizer } from '../../src/summarizers/summarizer.js';
import { type TestDatabase, createTestDatabase } from './database.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/**
 * An app on a fresh database, built the way server.ts builds it. `env` overrides configuration
 * variables; the offline embedder is off unless a test asks for it, so that tests stay fast.
 * `logger` captures the app's logs; `summarizer` replaces the one the configuration names;
 * `embedder` replaces the one EMBEDDINGS names (null: none). Every response is checked against
 * its route's schema (`validateResponses`): a response that breaks its OpenAPI contract fails the
 * test with a 500.
 */
export async function createTestContext(
  env: Record<string, string> = {},
  options: {
    logger?: FastifyBaseLogger;
    summarizer?: Summarizer;
    embedder?: Embedder | null;
    /** Told every statement the app runs (test/citus/routing.test.ts explains each one). */
    queryLogger?: Logger;
    /** Resolves webhook host names (D69 tests control DNS). */
    webhookLookup?: HostLookup;
  } = {},
): Promise<TestContext> {
  const database = await createTestDatabase({ queryLogger: options.queryLogger });
  const config = configFrom({
    ADMIN_TOKEN,
    EMBEDDINGS: 'none',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const app = await buildApp({
    config,
    database: database.handle,
    logger: options.logger,
    summarizer: options.summarizer,
    embedder: options.embedder,
    validateResponses: true,
    webhookLookup: options.webhookLookup,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * An embedder that needs no model and no network: every text gets the same unit vector. For
 * tests that need one configured (jobs are queued only then, D79) but never look at vectors.
 */
export function stubEmbedder(dimensions = 8): Embedder {
  const vector = Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0));
  return {
    id: `stub/${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map(() => [...vector]),
    close: async () => {},
  };
}

export interface TestProject {
  projectId: string;
  apiKey: string;
  /** Authorization header for this project's key. */
  auth: { authorization: string };
}

/** Every test makes its own project instead of truncating tables. */
export async function createProject(
  app: FastifyInstance,
  settings: Record<string, unknown> = {},
): Promise<TestProject> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/projects',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: `test-${Math.random().toString(36).slice(2)}`, settings },
  });
  if (response.statusCode !== 201) throw new Error(`project creation failed: ${response.body}`);
  const { project, apiKey } = response.json() as { project: { id: string }; apiKey: string };
  return { projectId: project.id, apiKey, auth: { authorization: `Bearer ${apiKey}` } };
}

/** `app.inject` as a project: adds its key. */
export function asProject(app: FastifyInstance, project: TestProject) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({ ...options, headers: { ...project.auth, ...(options.headers ?? {}) } });
}

/** Asserts the error envelope of D11 and returns its `error` object. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
): {
  code: string;
  message: string;
  type: string;
  details?: { field: string; code: string; message: string }[];
} {
  const body = response.json() as { error?: Record<string, unknown> };
  if (response.statusCode !== status || body.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.statusCode} ${response.body}`);
  }
  const error = body.error as { requestId: string; timestamp: string; type: string };
  if (error.requestId !== response.headers['x-request-id'])
    throw new Error('requestId differs from X-Request-Id');
  if (Number.isNaN(Date.parse(error.timestamp))) throw new Error('timestamp is not ISO 8601');
  return body.error as never;
}
