import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import type { FastifyInstance } from 'fastify';
import { ADMIN_TOKEN, expectError } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

// D101-D102: the console's files are served at /console with a strict Content-Security-Policy;
// every other path below /console is a page of the console (History API); CONSOLE_ENABLED=false
// turns it off. A folder standing for the build keeps these tests independent of Vite.

const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1.js"></script>';
const SCRIPT = 'console.log("console");';

describe('the console', () => {
  let root: string;
  let database: TestDatabase;
  let app: FastifyInstance;
  /** The test configuration, with the console on or off. */
  const config = (consoleEnabled = 'true') =>
    configFrom({
      ADMIN_TOKEN,
      EMBEDDINGS: 'none',
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      CONSOLE_ENABLED: consoleEnabled,
    });
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-console-'));
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), INDEX);
    await writeFile(join(root, 'assets', 'app-1.js'), SCRIPT);
    database = await createTestDatabase();
    app = await buildApp({ config: config(), database: database.handle, embedder: null, consoleRoot: root });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves its page at /console with a strict CSP and no caching', async () => {
    for (const url of ['/console', '/console/']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers every page address below /console with the page, so a reload opens the same view', async () => {
    for (const url of ['/console/dialogues', '/console/dialogues/dlg_x?namespace=a', '/console/admin']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-security-policy']).toBeDefined();
    }
  });

  it('serves its scripts with a long cache, and a missing one as 404, not as the page', async () => {
    const script = await app.inject({ method: 'GET', url: '/console/assets/app-1.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    expect(script.headers['cache-control']).toContain('immutable');
    expect(script.headers['content-security-policy']).toBeDefined();
    expectError(
      await app.inject({ method: 'GET', url: '/console/assets/gone.js' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('is not served with CONSOLE_ENABLED=false', async () => {
    const off = await buildApp({
      config: config('false'),
      database: database.handle,
      embedder: null,
      consoleRoot: root,
    });
    try {
      expectError(await off.inject({ method: 'GET', url: '/console' }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await off.inject({ method: 'GET', url: '/console/dialogues' }), 404, 'RESOURCE_NOT_FOUND');
    } finally {
      await off.close();
    }
  });

  it('says how to build it when its folder holds no build', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'parley-console-empty-'));
    const unbuilt = await buildApp({
      config: config(),
      database: database.handle,
      embedder: null,
      consoleRoot: empty,
    });
    try {
      const response = await unbuilt.inject({ method: 'GET', url: '/console/dialogues' });
      expect(expectError(response, 503, 'SERVICE_UNAVAILABLE').message).toContain('npm run build:console');
    } finally {
      await unbuilt.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
