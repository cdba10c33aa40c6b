import { describe, expect, it } from 'vitest';
import { callError, callOk, useMcpProject } from '../helpers/mcp.js';

// D78: write tools take an optional `idempotencyKey` with the meaning of REST's Idempotency-Key
// header, in one key space per project.

const mcp = useMcpProject();

interface Dialogue {
  id: string;
  totalMessages: number;
}

const key = () => `mcp-${Math.random().toString(36).slice(2)}`;

async function dialogueCount(): Promise<number> {
  const response = await mcp.rest({ method: 'GET', url: '/api/v1/dialogue?limit=100' });
  return (response.json() as { items: unknown[] }).items.length;
}

describe('MCP idempotency keys (D78)', () => {
  it('advertises idempotencyKey on every write tool and on no read tool', async () => {
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect('idempotencyKey' in properties, tool.name).toBe(tool.annotations?.readOnlyHint !== true);
    }
  });

  it('answers a retried call with the first result and writes once', async () => {
    const idempotencyKey = key();
    const before = await dialogueCount();
    const args = { label: 'support chat', messages: [{ role: 'user', content: 'hello' }], idempotencyKey };
    const first = await callOk<Dialogue>(mcp.client, 'create_dialogue', args);
    const again = await callOk<Dialogue>(mcp.client, 'create_dialogue', { ...args });
    expect(again.id).toBe(first.id);
    expect(await dialogueCount()).toBe(before + 1);

    const batchKey = key();
    const add = {
      dialogueId: first.id,
      messages: [{ role: 'assistant', content: 'hi' }],
      idempotencyKey: batchKey,
    };
    await callOk(mcp.client, 'add_messages', add);
    const replayed = await callOk<{ totalMessages: number }>(mcp.client, 'add_messages', add);
    expect(replayed.totalMessages).toBe(2);
    const got = await callOk<Dialogue>(mcp.client, 'get_dialogue', { dialogueId: first.id });
    expect(got.totalMessages).toBe(2);
  });

  it('refuses the same key with other arguments, and a key REST used already', async () => {
    const idempotencyKey = key();
    await callOk(mcp.client, 'create_memory', { value: 'first value', idempotencyKey });
    await callError(
      mcp.client,
      'create_memory',
      { value: 'another value', idempotencyKey },
      'RESOURCE_CONFLICT',
    );

    const restKey = key();
    const response = await mcp.rest({
      method: 'POST',
      url: '/api/v1/memory',
      headers: { 'idempotency-key': restKey },
      payload: { value: 'from REST' },
    });
    expect(response.statusCode).toBe(201);
    await callError(
      mcp.client,
      'create_memory',
      { value: 'from REST', idempotencyKey: restKey },
      'RESOURCE_CONFLICT',
    );
  });

  it('takes the arguments in any key order as the same call', async () => {
    const idempotencyKey = key();
    const first = await callOk<{ id: string }>(mcp.client, 'create_memory', {
      value: 'ordered',
      label: 'a',
      idempotencyKey,
    });
    const again = await callOk<{ id: string }>(mcp.client, 'create_memory', {
      idempotencyKey,
      label: 'a',
      value: 'ordered',
    });
    expect(again.id).toBe(first.id);
  });

  it('refuses a key of the wrong size like the REST header', async () => {
    await callError(mcp.client, 'create_memory', { value: 'x', idempotencyKey: '' }, 'INVALID_INPUT');
    await callError(
      mcp.client,
      'create_memory',
      { value: 'x', idempotencyKey: 'k'.repeat(256) },
      'INVALID_INPUT',
    );
  });
});
