import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('default project (D9)', () => {
  it('generates a key only while the default project has none', async () => {
    const { projects } = ctx.app.services;
    const first = await projects.ensureDefaultProject();
    expect(first.generatedKey).toMatch(/^prly_/);
    expect((await projects.authenticate(first.generatedKey!))?.projectId).toBe(first.projectId);
    const second = await projects.ensureDefaultProject();
    expect(second).toEqual({ projectId: first.projectId });
  });

  it('makes the bootstrap key valid again at every start, even after a revocation', async () => {
    const { projects } = ctx.app.services;
    const key = 'bootstrap-key-abcdefghijklmnop';
    const { projectId } = await projects.ensureDefaultProject(key);
    const owner = await projects.authenticate(key);
    expect(owner?.projectId).toBe(projectId);
    await projects.revokeKey(projectId, owner!.keyId);
    expect(await projects.authenticate(key)).toBeUndefined();
    await projects.ensureDefaultProject(key);
    expect((await projects.authenticate(key))?.projectId).toBe(projectId);
  });
});
