import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';
import { runNode } from '../helpers/processes.js';

// D10: the CLI works directly on the database: embedded by default, or DATABASE_URL.
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const serverUrl = testServerUrl();
  if (serverUrl) {
    const database = await createServerDatabase(serverUrl);
    env = { DATABASE_URL: database.url };
    cleanup = database.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
    env = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => cleanup?.());

async function parley(...args: string[]) {
  const result = await runNode(['src/cli.ts', ...args], { env });
  return { ...result, json: () => JSON.parse(result.stdout) };
}

// Each command is a process of its own that opens the store: give a busy machine room.
const CLI_TIMEOUT_MS = 300_000;

describe('parley CLI', { timeout: CLI_TIMEOUT_MS }, () => {
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

  it('reports errors with a non-zero exit code', async () => {
    const missing = await parley('project', 'show', 'prj_missing');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('not found');
    const badSettings = await parley('project', 'create', 'x', '--settings', '{"bogus":1}');
    expect(badSettings.code).not.toBe(0);
    expect(badSettings.stderr).toContain('bogus');
  });

  it('applies migrations on demand, twice without harm', async () => {
    expect((await parley('migrate')).code).toBe(0);
    expect((await parley('migrate')).json()).toEqual({ migrated: true });
  });
});
