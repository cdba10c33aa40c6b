import { afterAll, describe, expect, it } from 'vitest';
import { testServerUrl } from '../helpers/database.js';
import { type RunningServer, freshStoreEnv, spawnCli, spawnServerProcess } from '../helpers/processes.js';
import { eventually } from '../helpers/eventually.js';
import { useReceivers } from '../helpers/webhook-receiver.js';

// D68: deliveries live in Postgres. The server is killed with SIGKILL while deliveries are
// pending (the receiver fails every attempt); after a restart on the same store, with the
// receiver healthy again, every committed event is delivered at least once. The receiver is an
// HTTPS server with a self-signed certificate, which the server process trusts through
// WEBHOOK_CA_FILE (read at each start).

const BOOTSTRAP_API_KEY = 'webhook-crash-key-0123456789abcdef';
const MESSAGES = 30;

const stores = [
  { name: 'embedded database (PGlite)', postgres: false },
  ...(testServerUrl() ? [{ name: 'Postgres', postgres: true }] : []),
];

const receivers = useReceivers();
const running = new Set<RunningServer>();
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
});

async function api(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${BOOTSTRAP_API_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe.each(stores)('webhook deliveries survive SIGKILL: $name', ({ postgres }) => {
  it('delivers every committed event after the restart', { timeout: 120_000 }, async () => {
    let healthy = false;
    const receiver = await receivers.start(() => ({ status: healthy ? 200 : 500 }));
    const store = await freshStoreEnv(postgres ? 'postgres' : 'pglite');
    const env = {
      ...store.env,
      BOOTSTRAP_API_KEY,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receivers.caFile,
      WEBHOOK_RETRY_SCHEDULE_MS: Array(12).fill('200').join(','),
    };
    try {
      const first = await spawnServerProcess(env);
      running.add(first);
      await first.ready();
      expect((await api(first, 'POST', '/webhooks', { url: receiver.url })).status).toBe(201);
      const dialogue = (await api(first, 'POST', '/dialogue', {})).json as { id: string };
      for (let i = 0; i < MESSAGES; i++) {
        const sent = await api(first, 'POST', '/message', {
          dialogueId: dialogue.id,
          role: 'user',
          content: `m${i}`,
        });
        expect(sent.status).toBe(201);
      }
      await eventually(() => receiver.received.length >= 2);
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      running.delete(first);

      healthy = true;
      const failedBefore = receiver.received.length;
      const delivered = new Set<string>();
      const second = await spawnServerProcess(env);
      running.add(second);
      await second.ready();
      const feed = (await api(second, 'GET', '/events?limit=1000')).json as { items: { id: string }[] };
      expect(feed.items).toHaveLength(MESSAGES + 1);
      await eventually(
        () => {
          // Requests answered while healthy are the successful ones.
          for (const request of receiver.received.slice(failedBefore))
            delivered.add(String(request.headers['webhook-id']));
          return feed.items.every((event) => delivered.has(event.id));
        },
        { timeoutMs: 60_000 },
      );
      await second.stop('SIGTERM');
      running.delete(second);
    } finally {
      await receiver.close();
      await store.remove();
    }
  });
});

describe.runIf(testServerUrl())('parley worker delivers webhooks (PostgreSQL)', () => {
  it('delivers what a server with WEBHOOK_WORKER=false committed, and stops on SIGTERM', {
    timeout: 120_000,
  }, async () => {
    const receiver = await receivers.start();
    const store = await freshStoreEnv('postgres');
    const env = {
      ...store.env,
      BOOTSTRAP_API_KEY,
      LOG_LEVEL: 'warn',
      EMBEDDINGS: 'none',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receivers.caFile,
      WEBHOOK_WORKER: 'false',
    };
    try {
      const server = await spawnServerProcess(env);
      running.add(server);
      await server.ready();
      expect((await api(server, 'POST', '/webhooks', { url: receiver.url })).status).toBe(201);
      expect((await api(server, 'POST', '/memory', { value: 'tea' })).status).toBe(201);
      const worker = spawnCli(['worker'], env);
      await eventually(() => receiver.received.length === 1, { timeoutMs: 60_000 });
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'memory.created', seq: 1 });
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code, worker.output().stderr).toBe(0);
      await server.stop('SIGTERM');
      running.delete(server);
    } finally {
      await receiver.close();
      await store.remove();
    }
  });
});
