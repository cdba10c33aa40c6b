import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPAWNING_TEST_TIMEOUT_MS, freshStoreEnv, runNode } from '../helpers/processes.js';

// D151: `parley retention show|set|preview`, on the database directly as every `parley` command.
let store: Awaited<ReturnType<typeof freshStoreEnv>>;

beforeAll(async () => {
  store = await freshStoreEnv();
});
afterAll(async () => store?.remove());

async function parley(...args: string[]) {
  const result = await runNode(['src/cli.ts', ...args], { env: store.env });
  return { ...result, json: () => JSON.parse(result.stdout) };
}

describe('parley retention', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('sets, shows and previews a policy, and refuses a bad one without changing it', async () => {
    const { project } = (await parley('project', 'create', 'kept')).json();
    const set = await parley(
      'retention',
      'set',
      project.id,
      '{"messageDays":30,"namespaces":{"eu":{"memoryDays":0.5}}}',
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.json()).toEqual({ messageDays: 30, namespaces: { eu: { memoryDays: 0.5 } } });
    expect((await parley('retention', 'show', project.id)).json()).toEqual(set.json());

    const preview = await parley('retention', 'preview', project.id, '--policy', '{"idleDialogueDays":1}');
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.json()).toMatchObject({
      projectId: project.id,
      policy: { idleDialogueDays: 1 },
      total: { messages: 0, dialogues: 0, memories: 0 },
    });

    const refused = await parley('retention', 'set', project.id, '{"messageDays":-3}');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('messageDays');
    expect((await parley('retention', 'show', project.id)).json()).toEqual(set.json());
  });
});
