import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { readMigrationJournal } from '../../src/db/migration-files.js';
import { SPAWNING_TEST_TIMEOUT_MS, freshStoreEnv, runNode } from '../helpers/processes.js';

// D10: the CLI works directly on the database: embedded by default, or DATABASE_URL.
let store: Awaited<ReturnType<typeof freshStoreEnv>>;

beforeAll(async () => {
  store = await freshStoreEnv();
});
afterAll(async () => store?.remove());

async function parley(...args: string[]) {
  const result = await runNode(['src/cli.ts', ...args], { env: store.env });
  return { ...result, json: () => JSON.parse(result.stdout) };
}

// Each command is a process of its own that opens the store: give a busy machine room.

describe('parley CLI', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  // First: the store is still empty here, every later command finds it migrated.
  it('migrate prints the names of the migrations it applied', async () => {
    const tags = readMigrationJournal().map((entry) => entry.tag);
    const first = await parley('migrate');
    expect(first.code).toBe(0);
    expect(first.json()).toEqual({
      migrated: true,
      applied: tags,
      message: `Applied ${tags.length} migrations: ${tags.join(', ')}`,
    });
  });

  it('creates, lists, shows and changes projects, and manages keys', async () => {
    const created = await parley('project', 'create', 'acme', '--settings', '{"immutableDialogues":true}');
    expect(created.code).toBe(0);
    const { project, apiKey } = created.json();
    expect(apiKey).toMatch(/^prly_/);
    expect(project.settings).toEqual({ immutableDialogues: true });

    const listed = await parley('project', 'list');
    expect(listed.json().items.map((p: { id: string }) => p.id)).toContain(project.id);

    const changed = await parley(
      'project',
      'set',
      project.id,
      '--name',
      'acme2',
      '--settings',
      '{"monthlyWriteQuota":5}',
    );
    expect(changed.json()).toMatchObject({
      name: 'acme2',
      settings: { immutableDialogues: true, monthlyWriteQuota: 5 },
    });
    expect((await parley('project', 'show', project.id)).json().name).toBe('acme2');

    const key = (await parley('key', 'create', project.id)).json();
    expect(key.id).toMatch(/^key_/);
    expect((await parley('key', 'revoke', project.id, key.id)).json()).toEqual({ success: true, id: key.id });
  });

  it('prints key ids, lists keys and revokes a key by the key itself (D83)', async () => {
    const created = (await parley('project', 'create', 'keyring')).json();
    expect(created.keyId).toMatch(/^key_/);
    const second = (await parley('key', 'create', created.project.id)).json();

    const revoked = await parley('key', 'revoke', '--key', created.apiKey);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.json()).toEqual({ success: true, id: created.keyId, projectId: created.project.id });

    const listed = await parley('key', 'list', created.project.id);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(created.apiKey);
    const items = listed.json().items as { id: string; prefix: string; revoked: string | null }[];
    expect(items.map((k) => k.id)).toEqual([created.keyId, second.id]);
    expect(items[0]).toMatchObject({ prefix: created.apiKey.slice(0, 9), revoked: expect.any(String) });
    expect(items[1]!.revoked).toBeNull();

    const unknown = await parley('key', 'revoke', created.project.id, 'key_missing');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('not found');
    const neither = await parley('key', 'revoke', created.project.id);
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toContain('give either <projectId> <keyId>, or --key <apiKey> alone');
  });

  it('reports errors with a non-zero exit code', async () => {
    const missing = await parley('project', 'show', 'prj_missing');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('not found');
    const badSettings = await parley('project', 'create', 'x', '--settings', '{"bogus":1}');
    expect(badSettings.code).not.toBe(0);
    expect(badSettings.stderr).toContain('bogus');
  });

  it('erases a namespace with `namespace erase` and prints the completed erasure (D162)', async () => {
    const { project } = (await parley('project', 'create', 'forgetful')).json();
    const handle = await openDatabase({
      databaseUrl: store.env.DATABASE_URL,
      dataDir: store.env.DATA_DIR ?? 'unused',
    });
    try {
      await handle.db.execute(
        sql`INSERT INTO dialogues (project_id, id, namespace, total_messages) VALUES (${project.id}, 'dlg_ns', 'user-1', 2)`,
      );
      await handle.db.execute(sql`
        INSERT INTO messages (project_id, dialogue_id, id, namespace, role, content, content_length)
        SELECT ${project.id}, 'dlg_ns', 'msg_' || i, 'user-1', 'user', '"hi"', 4 FROM generate_series(1, 2) AS i`);
      await handle.db.execute(
        sql`INSERT INTO memories (project_id, id, namespace, value) VALUES (${project.id}, 'mem_ns', 'user-1', 'x')`,
      );
    } finally {
      await handle.close();
    }
    const erased = await parley('namespace', 'erase', project.id, 'user-1');
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.json()).toMatchObject({
      namespace: 'user-1',
      status: 'completed',
      counts: { dialogues: 1, messages: 2, memories: 1 },
    });
    const missing = await parley('namespace', 'erase', 'prj_missing', 'user-1');
    expect(missing.code).not.toBe(0);
  });

  it('erases a project with `project delete` and prints the rows removed per table and its record (D74, D166)', async () => {
    const { project } = (await parley('project', 'create', 'doomed')).json();
    // Data written straight into the store, then left to the CLI (one owner at a time).
    const handle = await openDatabase({
      databaseUrl: store.env.DATABASE_URL,
      dataDir: store.env.DATA_DIR ?? 'unused',
    });
    try {
      await handle.db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${project.id}, 'dlg_cli')`);
      await handle.db.execute(sql`
        INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length)
        SELECT ${project.id}, 'dlg_cli', 'msg_' || i, 'user', '"hi"', 4 FROM generate_series(1, 3) AS i`);
      await handle.db.execute(sql`
        INSERT INTO summaries (project_id, id, dialogue_id, status, provider, model, message_count, summarized_count, skipped_count)
        VALUES (${project.id}, 'sum_cli', 'dlg_cli', 'completed', 'parley', 'm', 3, 3, 0)`);
      await handle.db.execute(
        sql`INSERT INTO memories (project_id, id, value) VALUES (${project.id}, 'mem_cli', 'x')`,
      );
    } finally {
      await handle.close();
    }

    const erased = await parley('project', 'delete', project.id);
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.json()).toMatchObject({
      success: true,
      id: project.id,
      deleted: {
        projects: 1,
        api_keys: 1,
        dialogues: 1,
        messages: 3,
        summaries: 1,
        memories: 1,
        embedding_jobs: 0,
        idempotency_keys: 0,
        usage_counters: 0,
        // Written straight into the store: no events (D74 counts every tenant table).
        events: 0,
        event_sequences: 0,
        webhook_endpoints: 0,
        webhook_deliveries: 0,
        webhook_attempts: 0,
        erasures: 0,
        // Counted on write, uncounted as each dialogue and memory went before the project did.
        search_terms: 0,
      },
    });
    // D166: the erasure's record, which a retry prints again.
    expect(erased.json().erasure).toMatchObject({ projectId: project.id, status: 'completed' });
    const again = await parley('project', 'delete', project.id);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toEqual(erased.json());
    expect((await parley('project', 'delete', 'prj_never')).stderr).toContain('not found');
  });

  it('applies migrations on demand, twice without harm', async () => {
    expect((await parley('migrate')).code).toBe(0);
    expect((await parley('migrate')).json()).toEqual({
      migrated: true,
      applied: [],
      message: 'Up to date: no migration to apply',
    });
  });
});
