import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/app.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callError, callOk, useMcpProject } from '../helpers/mcp.js';

// D42: the memory tools and the search tool, over the services REST uses.

interface Memory {
  id: string;
  label: string | null;
  value: string;
  namespace: string | null;
  tags: string[];
}
interface Found {
  results: { relevance: number; item: Record<string, unknown> }[];
  mode: string;
}

const mcp = useMcpProject();

describe('MCP memory tools', () => {
  it('creates, lists, gets, finds and deletes a memory', async () => {
    const created = await callOk<Memory>(mcp.client, 'create_memory', {
      value: 'Ada prefers invoices in Portuguese',
      label: 'invoice language',
      tags: ['billing'],
    });
    expect(created).toMatchObject({ label: 'invoice language', namespace: null, tags: ['billing'] });

    const got = await callOk<Memory>(mcp.client, 'get_memory', { memoryId: created.id });
    expect(got.value).toBe('Ada prefers invoices in Portuguese');

    const listed = await callOk<{ items: Memory[]; next: string | null }>(mcp.client, 'list_memories', {
      tag: ['billing'],
    });
    expect(listed.items.map((memory) => memory.id)).toEqual([created.id]);

    const found = await callOk<Found>(mcp.client, 'search', {
      query: 'invoices Portuguese',
      object: 'memory',
    });
    expect(found.results[0]?.item.id).toBe(created.id);
    expect(found.results[0]?.relevance).toBeGreaterThan(0);

    const deleted = await callOk(mcp.client, 'delete_memory', { memoryId: created.id });
    expect(deleted).toEqual({ success: true, id: created.id });
    await callError(mcp.client, 'get_memory', { memoryId: created.id }, 'MEMORY_NOT_FOUND');
    await callError(mcp.client, 'delete_memory', { memoryId: created.id }, 'MEMORY_NOT_FOUND');
  });

  it('keeps namespaces apart and answers errors with the REST codes', async () => {
    const scoped = await callOk<Memory>(mcp.client, 'create_memory', {
      value: 'likes tea',
      namespace: 'user-1',
    });
    await callError(
      mcp.client,
      'get_memory',
      { memoryId: scoped.id, namespace: 'user-2' },
      'MEMORY_NOT_FOUND',
    );
    expect(
      (await callOk<Memory>(mcp.client, 'get_memory', { memoryId: scoped.id, namespace: 'user-1' })).value,
    ).toBe('likes tea');

    await callError(mcp.client, 'create_memory', { label: 'no value' }, 'MISSING_PARAMETER');
    await callError(mcp.client, 'create_memory', { value: 'x', extra: true }, 'INVALID_INPUT');
    await callError(mcp.client, 'create_memory', { value: 'v'.repeat(64 * 1024 + 1) }, 'INVALID_INPUT');
  });

  it('reads over REST what MCP wrote, and over MCP what REST wrote', async () => {
    const viaMcp = await callOk<Memory>(mcp.client, 'create_memory', { value: 'written over MCP' });
    const read = await mcp.rest({ method: 'GET', url: `/api/v1/memory/${viaMcp.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(viaMcp);

    const viaRest = await mcp.rest({
      method: 'POST',
      url: '/api/v1/memory',
      payload: { value: 'written over REST' },
    });
    expect(viaRest.statusCode).toBe(201);
    const { id } = viaRest.json() as { id: string };
    expect(await callOk(mcp.client, 'get_memory', { memoryId: id })).toEqual(viaRest.json());
    await callOk(mcp.client, 'delete_memory', { memoryId: id });
    expectError(await mcp.rest({ method: 'GET', url: `/api/v1/memory/${id}` }), 404, 'MEMORY_NOT_FOUND');

    const { contents } = await mcp.client.readResource({ uri: `parley://memory/${viaMcp.id}` });
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(viaMcp);
    const { resources } = await mcp.client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`parley://memory/${viaMcp.id}`);
  });
});

describe('MCP search tool', () => {
  it('answers bad searches with the REST codes (D39)', async () => {
    const short = await callError(mcp.client, 'search', { query: ' ab ' }, 'SEARCH_QUERY_TOO_SHORT');
    const viaRest = expectError(
      await mcp.rest({ method: 'POST', url: '/api/v1/search', payload: { query: ' ab ' } }),
      400,
      'SEARCH_QUERY_TOO_SHORT',
    );
    expect(short.message).toBe(viaRest.message);
    await callError(mcp.client, 'search', { query: 'hello there', object: 'planet' }, 'INVALID_PARAMETER');
    await callError(mcp.client, 'search', {}, 'MISSING_PARAMETER');
    await callError(
      mcp.client,
      'search',
      { query: 'hello there', dialogueId: 'dlg_missing' },
      'DIALOGUE_NOT_FOUND',
    );
  });

  it('takes the REST search fields (D59): filters, order, matches and the request echo', async () => {
    const { tools } = await mcp.client.listTools();
    const properties = tools.find((tool) => tool.name === 'search')!.inputSchema.properties!;
    for (const field of ['tags', 'metadata', 'filter', 'timezone', 'orderBy', 'order']) {
      expect(Object.keys(properties)).toContain(field);
    }

    const created = await callOk<{ id: string }>(mcp.client, 'create_dialogue', {
      namespace: 'mcp-ns',
      label: 'Gecko terrarium',
      tags: ['pets'],
      metadata: { owner: 'ada' },
      messages: [
        { role: 'user', content: 'gecko terrarium heating lamp' },
        { role: 'assistant', content: 'A gecko terrarium needs a heating lamp at one end' },
      ],
    });
    const args = {
      query: 'gecko terrarium heating',
      object: 'dialogue',
      tags: { $in: ['pets'] },
      metadata: { owner: { $eq: 'ada' } },
      filter: { created: { gte: '2020-01-01' }, hasImage: false },
      timezone: 'Europe/Oslo',
      orderBy: 'created',
      order: 'asc',
    };
    // Without a namespace the whole project is searched (D51).
    const found = await callOk<{
      results: {
        object: string;
        item: { id: string };
        matches: { object: string; item: { id: string } }[];
      }[];
      request: Record<string, unknown>;
    }>(mcp.client, 'search', args);
    expect(found.results.map((r) => [r.object, r.item.id])).toEqual([['dialogue', created.id]]);
    expect(found.results[0]!.matches.map((m) => m.object)).toEqual(['message', 'message']);
    expect(found.request).toEqual({
      orderBy: 'created',
      order: 'asc',
      candidateOrderBy: 'relevance',
      filter: {
        namespace: null,
        dialogueId: null,
        tags: { $in: ['pets'] },
        metadata: { owner: { $eq: 'ada' } },
        created: { gte: '2019-12-31T23:00:00.000Z' },
        modified: null,
        hasImage: false,
      },
    });
    const rendered = (await mcp.client.callTool({ name: 'search', arguments: args })) as CallToolResult;
    const text = rendered.content[0]?.type === 'text' ? rendered.content[0].text : '';
    expect(text).toContain('oldest created first');
    expect(text).toContain(`Best messages of dialogue ${created.id}:`);
    expect(text).toContain('gecko terrarium heating lamp');

    const viaRest = await mcp.rest({ method: 'POST', url: '/api/v1/search', payload: args });
    expect(viaRest.json()).toEqual(found);
    await callError(mcp.client, 'search', { ...args, timezone: 'Mars/Olympus' }, 'INVALID_PARAMETER');
    const bad = await callError(mcp.client, 'search', { ...args, tags: { $any: ['x'] } }, 'INVALID_INPUT');
    expect(bad.details?.[0]?.field).toBe('tags.$any');
  });
});
