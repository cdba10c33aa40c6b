import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from './helpers/app.js';
import { V1, createDialogue, getDialogue } from './helpers/dialogues.js';
import { dialogueAndMessageCases, expectForeignLikeMissing } from './helpers/isolation.js';

// D46: another project's dialogues and messages answer exactly like ids that do not exist.

let ctx: TestContext;
let owner: TestProject;
let stranger: TestProject;

beforeAll(async () => {
  // One address sends 42 requests without a valid key below: more than D76's default limit.
  ctx = await createTestContext({ AUTH_FAILURE_LIMIT: '1000' });
  owner = await createProject(ctx.app);
  stranger = await createProject(ctx.app);
});
afterAll(() => ctx.close());

describe('cross-project isolation (D46)', () => {
  it("answers every route on a foreign project's ids exactly like on missing ids, changing nothing", async () => {
    const ownerApi = asProject(ctx.app, owner);
    const dialogue = await createDialogue(ownerApi, {
      namespace: 'shared-name',
      tags: ['secret'],
      state: { s: 1 },
      messages: [{ id: 'msg-1', role: 'user', content: 'private' }],
    });
    await createDialogue(ownerApi, { threadOf: dialogue.id, namespace: 'shared-name' });
    const before = await getDialogue(ownerApi, dialogue.id);

    await expectForeignLikeMissing(
      ctx.app,
      stranger,
      dialogueAndMessageCases(),
      { dialogueId: dialogue.id, messageId: 'msg-1', namespace: 'shared-name' },
      { dialogueId: 'dlg_01jzzzzzzzzzzzzzzzzzzzzzzz', messageId: 'msg-404', namespace: 'shared-name' },
    );

    const after = await getDialogue(ownerApi, dialogue.id);
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      totalMessages: 1,
      threadCount: 1,
      tags: ['secret'],
      state: { s: 1 },
      status: 'active',
    });
  });

  it('answers every route without a valid key with 401 UNAUTHORIZED', async () => {
    const ids = { dialogueId: 'dlg_x', messageId: 'msg_x', namespace: 'n' };
    for (const { name, request } of dialogueAndMessageCases()) {
      for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
        const response = await ctx.app.inject({ ...request(ids), headers });
        expect(response.statusCode, name).toBe(401);
        expect(response.json().error.code).toBe('UNAUTHORIZED');
      }
    }
  });

  it("never lists another project's dialogues", async () => {
    await createDialogue(asProject(ctx.app, owner), { tags: ['mine'] });
    const listed = await asProject(ctx.app, stranger)({ method: 'GET', url: `${V1}/dialogue?tag=mine` });
    expect(listed.json()).toEqual({ items: [], next: null });
  });
});
