import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createProject } from '../helpers/app.js';
import { connectMcp, useMcpProject } from '../helpers/mcp.js';

// MCP resources: parley://dialogue/{id} and parley://memory/{id}, listed and readable.

const mcp = useMcpProject();

async function createDialogueViaRest(payload: string): Promise<string> {
  const response = await mcp.rest({
    method: 'POST',
    url: '/api/v1/dialogue',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: string }).id;
}

async function readError(uri: string): Promise<McpError> {
  const error = await mcp.client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an MCP error for ${uri}`);
  return error;
}

describe('MCP resources', () => {
  it('offers the dialogue and memory templates', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'parley://dialogue/{id}',
      'parley://memory/{id}',
    ]);
  });

  it('reads a dialogue with its recent messages, content byte for byte (D18, D28)', async () => {
    const content = '{"z":1,"10":"ten","n":12345678901234567890}';
    const id = await createDialogueViaRest(
      `{"label":"resource","messages":[{"role":"user","content":${content}},{"role":"assistant","content":"ok"}]}`,
    );
    const uri = `parley://dialogue/${id}`;
    const { contents } = await mcp.client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [entry] = contents as { uri: string; mimeType: string; text: string }[];
    expect(entry).toMatchObject({ uri, mimeType: 'application/json' });
    expect(entry!.text).toContain(`"content":${content}`);
    const viaRest = await mcp.rest({ method: 'GET', url: `/api/v1/dialogue/${id}` });
    expect(JSON.parse(entry!.text)).toEqual(viaRest.json());
  });

  it('lists the dialogues of the project, newest first, page by page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await createDialogueViaRest(`{"label":"listed ${i}"}`));
    const first = await mcp.client.listResources();
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await mcp.client.listResources({ cursor: first.nextCursor });
    const uris = [...first.resources, ...second.resources].map((resource) => resource.uri);
    for (const id of ids) expect(uris).toContain(`parley://dialogue/${id}`);
    expect(uris.indexOf(`parley://dialogue/${ids.at(-1)}`)).toBeLessThan(
      uris.indexOf(`parley://dialogue/${ids[0]}`),
    );
    const listed = first.resources.find((resource) => resource.uri === `parley://dialogue/${ids.at(-1)}`);
    expect(listed).toMatchObject({ title: 'listed 51', mimeType: 'application/json' });

    const other = await createProject(mcp.context.app);
    const otherClient = await connectMcp(mcp.baseUrl, other.apiKey);
    expect((await otherClient.listResources()).resources).toEqual([]);
    await otherClient.close();
  });

  it('answers an unknown or foreign resource with the resource-not-found error and the REST code', async () => {
    const missing = await readError('parley://dialogue/dlg_missing');
    expect(missing.code).toBe(-32002);
    expect(missing.data).toMatchObject({ code: 'DIALOGUE_NOT_FOUND' });

    const id = await createDialogueViaRest('{}');
    const other = await createProject(mcp.context.app);
    const otherClient = await connectMcp(mcp.baseUrl, other.apiKey);
    await expect(otherClient.readResource({ uri: `parley://dialogue/${id}` })).rejects.toMatchObject({
      code: -32002,
    });
    await otherClient.close();

    expect((await readError('parley://nothing/1')).code).toBe(-32002);
    expect((await readError('https://example.com/x')).code).toBe(-32002);
  });

  it('refuses a list cursor it did not make', async () => {
    await expect(mcp.client.listResources({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: -32602 });
  });
});
