import { createProjectService } from '../../src/modules/projects/service.js';
import { describe, expect, it } from 'vitest';
import { eventOutboxFor } from '../../src/modules/events/outbox.js';
import { createSequencer } from '../../src/modules/events/sequencer.js';
import { createTransferService } from '../../src/modules/transfer/service.js';
import { asProject, createProject } from '../helpers/app.js';
import { callError, callOk, useMcpProject } from '../helpers/mcp.js';

/** What export and import are handed: the database and its projects. */

// D63, D64, D71: events from the write paths beside plain REST: MCP tools, compaction and
// continuation, and the CLI's import; list_events reads them back.

interface FeedEvent {
  seq: number;
  type: string;
  dialogueId: string | null;
  objectId: string;
  data: Record<string, unknown>;
}

const mcp = useMcpProject();

const feedOf = async (rest: ReturnType<typeof asProject>, after = 0): Promise<FeedEvent[]> =>
  (
    (await rest({ method: 'GET', url: `/api/v1/events?after=${after}&limit=1000` })).json() as {
      items: FeedEvent[];
    }
  ).items;

describe('events from every write path', () => {
  it('MCP writes emit them, and list_events reads them with the REST filters', async () => {
    const before = (await feedOf(mcp.rest)).at(-1)?.seq ?? 0;
    const dialogue = await callOk<{ id: string }>(mcp.client, 'create_dialogue', {
      label: 'via MCP',
      message: { role: 'user', content: 'hello' },
    });
    await callOk(mcp.client, 'add_messages', {
      dialogueId: dialogue.id,
      messages: [{ role: 'assistant', content: 'hi' }],
    });
    await callOk(mcp.client, 'update_state', { dialogueId: dialogue.id, state: { step: 1 } });
    const memory = await callOk<{ id: string }>(mcp.client, 'create_memory', { value: 'tea' });
    await callOk(mcp.client, 'delete_memory', { memoryId: memory.id });

    const listed = await callOk<{ items: FeedEvent[]; next: number }>(mcp.client, 'list_events', {
      after: before,
    });
    expect(listed.items.map((event) => event.type)).toEqual([
      'dialogue.created',
      'message.created',
      'message.created',
      'dialogue.updated',
      'memory.created',
      'memory.deleted',
    ]);
    expect(listed.next).toBe(listed.items.at(-1)!.seq);
    expect(listed.items[1]!.data).toMatchObject({ content: 'hello', dialogueId: dialogue.id });

    const filtered = await callOk<{ items: FeedEvent[] }>(mcp.client, 'list_events', {
      after: before,
      type: ['memory.*', 'dialogue.updated'],
    });
    expect(filtered.items.map((event) => event.type)).toEqual([
      'dialogue.updated',
      'memory.created',
      'memory.deleted',
    ]);
    const again = await callOk<{ items: FeedEvent[]; next: number }>(mcp.client, 'list_events', {
      after: listed.next,
    });
    expect(again).toEqual({ items: [], next: listed.next });

    const refused = await callError(mcp.client, 'list_events', { type: ['nope'] }, 'INVALID_INPUT');
    expect(refused.details?.[0]?.field).toBe('type[0]');
  });

  it('compaction writes dialogue.compacted; continuation compacted, ended, created and continued', async () => {
    const dialogue = (
      await mcp.rest({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: { tags: ['t'], messages: [{ role: 'user', content: 'The order ships Monday from Leeds.' }] },
      })
    ).json() as { id: string };
    const start = (await feedOf(mcp.rest)).at(-1)!.seq;
    const compacted = await mcp.rest({ method: 'PUT', url: `/api/v1/dialogue/${dialogue.id}/compact` });
    expect(compacted.statusCode).toBe(200);
    const afterCompact = await feedOf(mcp.rest, start);
    expect(afterCompact.map((event) => event.type)).toEqual(['dialogue.compacted']);
    expect(afterCompact[0]!.data.summary).toMatchObject({ messageCount: 1 });
    // Nothing new to summarize: no new summary, no event.
    await mcp.rest({ method: 'PUT', url: `/api/v1/dialogue/${dialogue.id}/compact` });
    expect(await feedOf(mcp.rest, afterCompact[0]!.seq)).toEqual([]);

    await mcp.rest({
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId: dialogue.id, role: 'assistant', content: 'Noted.' },
    });
    const mark = (await feedOf(mcp.rest)).at(-1)!.seq;
    const continued = await mcp.rest({ method: 'PUT', url: `/api/v1/dialogue/${dialogue.id}/continue` });
    expect(continued.statusCode).toBe(201);
    const next = (continued.json() as { id: string }).id;
    const events = await feedOf(mcp.rest, mark);
    expect(events.map((event) => [event.type, event.dialogueId, event.objectId])).toEqual([
      ['dialogue.compacted', dialogue.id, dialogue.id],
      ['dialogue.ended', dialogue.id, dialogue.id],
      ['dialogue.created', next, next],
      ['message.created', next, events[3]!.objectId],
      ['dialogue.continued', dialogue.id, next],
    ]);
    expect(events[4]!.data).toMatchObject({ id: next, metadata: { continuedFrom: dialogue.id } });
    expect(events[4]!.data).not.toHaveProperty('messages');
  });

  it("the CLI's import writes the created events of what it imports, in the file's order", async () => {
    const { app } = mcp.context;
    const source = asProject(app, await createProject(app));
    const dialogue = (
      await source({
        method: 'POST',
        url: '/api/v1/dialogue',
        payload: {
          label: 'moved',
          messages: [
            { role: 'user', content: 'one' },
            { role: 'user', content: 'two' },
          ],
        },
      })
    ).json() as { id: string };
    await source({ method: 'POST', url: '/api/v1/memory', payload: { value: 'kept' } });
    const lines: string[] = [];
    const sourceId = (
      (await source({ method: 'GET', url: '/api/v1/events' })).json() as { items: { projectId: string }[] }
    ).items[0]!.projectId;
    const transfer = createTransferService({
      db: app.db,
      projects: createProjectService({ db: app.db }),
      outbox: eventOutboxFor(app.database),
      queueEmbeddings: false,
    });
    await transfer.exportProject(sourceId, (line) => {
      lines.push(line.trimEnd());
    });

    const target = await createProject(app);
    async function* fromLines() {
      yield* lines;
    }
    await transfer.importProject(target.projectId, fromLines());
    // As `parley import` does after its commit.
    await createSequencer({ db: app.db }).settle(target.projectId);
    const imported = await feedOf(asProject(app, target));
    expect(imported.map((event) => [event.type, event.dialogueId])).toEqual([
      ['dialogue.created', dialogue.id],
      ['message.created', dialogue.id],
      ['message.created', dialogue.id],
      ['memory.created', null],
    ]);
    expect(imported[0]!.data).toMatchObject({ id: dialogue.id, label: 'moved', totalMessages: 2 });
    expect(imported[0]!.data).toHaveProperty('projectId', target.projectId);
  });
});
