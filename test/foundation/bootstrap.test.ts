import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { openDatabase } from '../../src/db/client.js';
import { createProjectService } from '../../src/modules/projects/service.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { SPAWNING_TEST_TIMEOUT_MS, freshStoreEnv, startServerProcess } from '../helpers/processes.js';

// D9 and the first-start experience of `npm start`, on the real server process.
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function storeEnv(): Promise<Record<string, string>> {
  const store = await freshStoreEnv();
  cleanups.push(store.remove);
  return store.env;
}

const keyIn = (output: string) => /prly_[A-Za-z0-9_-]{43}/.exec(output)?.[0];

describe('bootstrap (D9)', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('prints one generated key on the first start only, and keeps data across restarts', async () => {
    const env = { ...(await storeEnv()), ADMIN_TOKEN };
    const first = await startServerProcess(env);
    let key: string | undefined;
    try {
      // The banner is written before listen; its stdout may arrive a moment after.
      key = await eventually(() => keyIn(first.output()), {
        what: 'the generated key on stdout',
        timeoutMs: 5_000,
      }).catch(() => undefined);
      expect(key).toBeDefined();
      const created = await fetch(`${first.baseUrl}/admin/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'kept' }),
      });
      expect(created.status).toBe(201);
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }

    const second = await startServerProcess(env);
    try {
      const listed = await fetch(`${second.baseUrl}/admin/v1/projects`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const names = ((await listed.json()) as { items: { name: string }[] }).items.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['default', 'kept']));
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
    // Read once the process has exited, when all it wrote has arrived.
    expect(keyIn(second.output())).toBeUndefined();
  });

  it('makes BOOTSTRAP_API_KEY valid for the default project and prints nothing', async () => {
    const env: Record<string, string> = {
      ...(await storeEnv()),
      BOOTSTRAP_API_KEY: 'bootstrap-key-0123456789',
    };
    const server = await startServerProcess(env);
    expect(await server.stop('SIGTERM')).toBe(0);
    // Read once the process has exited, when all it wrote has arrived.
    expect(keyIn(server.output())).toBeUndefined();
    // The server owned the store while it ran; look at what it left behind.
    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? 'unused' });
    try {
      const projects = createProjectService({ db: handle.db });
      const owner = await projects.authenticate('bootstrap-key-0123456789');
      const defaultProject = (await projects.listProjects()).find((p) => p.name === 'default');
      expect(owner?.projectId).toBe(defaultProject?.id);
    } finally {
      await handle.close();
    }
  });
});
