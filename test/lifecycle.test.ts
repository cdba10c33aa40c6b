import { once } from 'node:events';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/db/client.js';
import { ADMIN_TOKEN } from './helpers/app.js';
import { testServerUrl } from './helpers/database.js';
import { eventually } from './helpers/eventually.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  freePort,
  freshStoreEnv,
  spawnServerProcess,
} from './helpers/processes.js';

// Lifecycle: graceful shutdown of the real server process, and start-up that waits for
// its database. Each test starts its own processes and kills them by pid.

const started: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop('SIGKILL');
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A server process with info logs (the lifecycle's messages are checked), not waited for. */
async function spawn(env: Record<string, string>) {
  const server = await spawnServerProcess({ ADMIN_TOKEN, LOG_LEVEL: 'info', ...env });
  started.push(server);
  return server;
}

async function start(env: Record<string, string>) {
  const server = await spawn(env);
  await server.ready();
  return server;
}

async function storeEnv(): Promise<Record<string, string>> {
  const store = await freshStoreEnv();
  cleanups.push(store.remove);
  return store.env;
}

/**
 * A POST whose body is sent in two parts, so that it is in flight for as long as the test wants.
 * `reached` resolves when the server has read its headers: it asks for `100 Continue`, which Node's
 * server sends as it hands the request to the app.
 */
function slowPost(url: string, path: string, body: string) {
  const request = http.request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const reached = once(request, 'continue').then(() => undefined);
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    request.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { finish: () => request.end(body.slice(half)), response, reached };
}

async function readyz(url: string) {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as { status: string } };
}

describe('graceful shutdown', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('on SIGTERM turns /readyz to 503, finishes the request in flight, closes the database and exits 0', async () => {
    const env = { ...(await storeEnv()), SHUTDOWN_DRAIN_MS: '1500', SHUTDOWN_GRACE_MS: '20000' };
    const server = await start(env);
    expect(await readyz(server.baseUrl)).toEqual({ status: 200, body: { status: 'ready' } });

    const inFlight = slowPost(server.baseUrl, '/admin/v1/projects', JSON.stringify({ name: 'in-flight' }));
    // The request has reached the server (its headers are read) before the signal.
    await inFlight.reached;
    server.child.kill('SIGTERM');

    // During the drain period the listener still answers, and readiness says "go elsewhere".
    const during = await eventually(
      async () => {
        const probe = await readyz(server.baseUrl);
        return probe.status === 503 ? probe : undefined;
      },
      { what: '/readyz to say 503', timeoutMs: 20_000 },
    );
    expect(during.body).toEqual({ status: 'shutting_down' });

    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status).toBe(201);
    const { project } = JSON.parse(answered.body) as { project: { id: string } };

    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines().some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    // New connections are refused once it is gone.
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();

    // The acknowledged write is there after a restart on the same store.
    const again = await start(env);
    const fetched = await fetch(`${again.baseUrl}/admin/v1/projects/${project.id}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(fetched.status).toBe(200);
    expect(((await fetched.json()) as { name: string }).name).toBe('in-flight');
  });

  it('exits 1 when a request is still in flight at the end of SHUTDOWN_GRACE_MS', async () => {
    const server = await start({ ...(await storeEnv()), SHUTDOWN_GRACE_MS: '1500' });
    const stuck = slowPost(server.baseUrl, '/admin/v1/projects', JSON.stringify({ name: 'never-finished' }));
    stuck.response.catch(() => {});
    await stuck.reached;
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.lines().some((line) => line.includes('grace period over'))).toBe(true);
  });
});

describe('graceful shutdown with the embedding worker', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('leaves no job claimed: each memory is embedded or still queued for the next worker', async () => {
    const env: Record<string, string> = {
      ...(await storeEnv()),
      EMBEDDINGS: 'local',
      SHUTDOWN_GRACE_MS: '60000',
    };
    const server = await start(env);
    const created = await fetch(`${server.baseUrl}/admin/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'worker-shutdown' }),
    });
    const { apiKey } = (await created.json()) as { apiKey: string };
    const memories = 60;
    for (let i = 0; i < memories; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          fetch(`${server.baseUrl}/api/v1/memory`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ value: `Remember fact ${i + j}: the order ships on day ${i + j}` }),
          }).then((response) => expect(response.status).toBe(201)),
        ),
      );
    }
    // Stop while the worker is busy with the queue.
    await eventually(
      async () => {
        const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
        return /parley_embeddings_total\{object="memory"\} [1-9]/.test(metrics);
      },
      { what: 'the first embeddings', timeoutMs: 120_000 },
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? 'unused' });
    try {
      const [state] = rowsOf<{ claimed: number; queued: number; embedded: number }>(
        await handle.db.execute(sql`
          SELECT (SELECT count(*) FROM embedding_jobs WHERE locked_until > now())::int AS claimed,
                 (SELECT count(*) FROM embedding_jobs)::int AS queued,
                 (SELECT count(*) FROM memories WHERE embedding IS NOT NULL)::int AS embedded`),
      );
      expect(state!.claimed).toBe(0);
      expect(state!.embedded).toBeGreaterThan(0);
      expect(state!.embedded + state!.queued).toBe(memories);
    } finally {
      await handle.close();
    }
  });
});

describe.runIf(testServerUrl())('start-up waits for the database (Postgres)', () => {
  it('waits with backoff for a database server that answers after the start, then serves', async () => {
    const store = await freshStoreEnv('postgres');
    cleanups.push(store.remove);
    const target = new URL(store.env.DATABASE_URL!);
    // Connections are held unanswered, as by a server still starting, until the proxy is restored.
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    proxy.cut();
    const server = await spawn({
      DATABASE_URL: proxy.urlThrough(store.env.DATABASE_URL!),
      DATABASE_CONNECT_TIMEOUT_MS: '500',
    });

    await server.waitForOutput(/database not reachable yet/);
    proxy.restore();

    await server.ready();
    expect(await readyz(server.baseUrl)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('gives up with exit 1 after DATABASE_WAIT_MS when nothing ever listens', async () => {
    // A port nothing listens on: one just released.
    const port = await freePort();

    const server = await spawn({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/parley`,
      DATABASE_WAIT_MS: '1500',
    });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    const waits = server.lines().filter((line) => line.includes('database not reachable yet'));
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toContain('ECONNREFUSED');
    expect(server.lines().join('\n')).toContain('Parley failed to start');
  });

  it('fails at once on an error that waiting cannot fix', async () => {
    const bad = new URL(testServerUrl()!);
    bad.username = 'no_such_role_for_parley';
    const server = await spawn({ DATABASE_URL: bad.toString(), DATABASE_WAIT_MS: '600000' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.lines().some((line) => line.includes('database not reachable yet'))).toBe(false);
  });
});
