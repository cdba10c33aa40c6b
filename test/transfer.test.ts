import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { dialogues, embeddingJobs, memories, messages } from '../src/db/schema.js';
import { eventOutboxFor } from '../src/modules/events/outbox.js';
import { insertProject } from '../src/modules/projects/repository.js';
import { createProjectService } from '../src/modules/projects/service.js';
import { readLines } from '../src/modules/transfer/lines.js';
import { TransferError, createTransferService } from '../src/modules/transfer/service.js';
import { type TestDatabase, createTestDatabase } from './helpers/database.js';
import { SPAWNING_TEST_TIMEOUT_MS, freshStoreEnv, runNode } from './helpers/processes.js';

/** What export and import are handed: the database and its projects. */
/** The transfer service on `db`, as services.ts wires it (D79: queueing embeddings unless told not to). */
const transferOn = (handle: DatabaseHandle, queueEmbeddings = true) =>
  createTransferService({
    db: handle.db,
    projects: createProjectService({ db: handle.db }),
    outbox: eventOutboxFor(handle),
    queueEmbeddings,
  });

// Backup and portability: `parley export` / `parley import` round trip, from one database
// into another database and project, comparing equal down to the bytes of message content.

let source: TestDatabase;
let target: TestDatabase;
const SOURCE_PROJECT = 'prj_transfer_source';
const TARGET_PROJECT = 'prj_transfer_target';
/** An import where an embedder is configured (D79: without one nothing is queued). */
/** Content texts as a client may send them (D28): key order, integer-like keys, big numbers, escapes. */
const contents = [
  '"plain text with \\u2028 a separator and \\"quotes\\""',
  '{"b":1,"a":[1,2,{"z":null}],"10":"ten","2":"two"}',
  '[{"type":"text","text":"héllo 👋 \\ud83d\\ude00"},{"type":"tool_call","id":"c1","args":{"q":"x"}}]',
  '{"big":12345678901234567890123,"float":1.50,"exp":1E+2}',
  '"a NUL \\u0000 kept as its escape"',
  '{ "spaced" : [ 1 , 2 ] }',
];

beforeAll(async () => {
  source = await createTestDatabase();
  target = await createTestDatabase();
  const db = source.handle.db;
  await insertProject(db, { id: SOURCE_PROJECT, name: 'source' });
  await insertProject(target.handle.db, { id: TARGET_PROJECT, name: 'target' });

  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  // The thread sorts before its parent, so that the import cannot rely on creation order.
  await db.insert(dialogues).values([
    {
      projectId: SOURCE_PROJECT,
      id: 'dlg_parent',
      namespace: 'user-1',
      label: 'Parent',
      status: 'ended',
      tags: ['a', 'b'],
      metadata: { source: 'test', nested: { k: [1, 2] } },
      state: { step: 3, flags: { x: true } },
      summary: {
        text: 'A summary',
        model: 'extractive',
        messageCount: 2,
        upToMessageId: 'm2',
        created: at(9).toISOString(),
      },
      threadCount: 1,
      searchText: 'Parent a b',
      created: at(10),
      modified: at(20),
    },
    {
      projectId: SOURCE_PROJECT,
      id: 'dlg_thread',
      threadOf: 'dlg_parent',
      tags: [],
      metadata: {},
      state: {},
      created: at(5),
      modified: at(6),
    },
  ]);
  // 1,203 messages: more than one page, with runs of equal `created` ordered by insertion.
  const rows = Array.from({ length: 1203 }, (_, i) => {
    const content = contents[i % contents.length]!;
    return {
      projectId: SOURCE_PROJECT,
      dialogueId: 'dlg_parent',
      id: i === 7 ? 'custom:id.7' : `msg_${String(i).padStart(5, '0')}`,
      namespace: 'user-1',
      role: (['user', 'assistant', 'system'] as const)[i % 3]!,
      content,
      contentLength: Buffer.byteLength(content),
      name: i % 5 === 0 ? 'speaker' : null,
      tags: i % 2 ? ['odd'] : [],
      metadata: i % 4 === 0 ? { i } : null,
      searchText: `text ${i}`,
      // Ten messages share each millisecond; a later one goes back in time (its own `created`).
      created: at(100 + Math.floor(i / 10) - (i === 1202 ? 1000 : 0)),
      modified: at(100 + i),
    };
  });
  for (let i = 0; i < rows.length; i += 300) await db.insert(messages).values(rows.slice(i, i + 300));
  const big = `"${'x'.repeat(1024 * 1024 - 2)}"`;
  await db.insert(messages).values({
    projectId: SOURCE_PROJECT,
    dialogueId: 'dlg_thread',
    id: 'msg_big',
    role: 'user',
    content: big,
    contentLength: Buffer.byteLength(big),
    created: at(7),
    modified: at(7),
  });
  await db
    .update(dialogues)
    .set({ totalMessages: 1203, lastMessageCreated: at(220) })
    .where(eq(dialogues.id, 'dlg_parent'));
  await db
    .update(dialogues)
    .set({ totalMessages: 1, lastMessageCreated: at(7) })
    .where(eq(dialogues.id, 'dlg_thread'));
  await db.insert(memories).values([
    {
      projectId: SOURCE_PROJECT,
      id: 'mem_1',
      label: 'likes',
      // D57: the stored value is its JSON text.
      value: '"tea, not coffee"',
      searchText: 'likes\ntea, not coffee',
      tags: ['pref'],
      created: at(1),
      modified: at(2),
    },
    {
      projectId: SOURCE_PROJECT,
      id: 'mem_2',
      namespace: 'user-1',
      value: '{"b":1,"a":"ünïcødé 🎉"}',
      description: 'a described one',
      searchText: 'a described one\nünïcødé 🎉',
      tags: [],
      metadata: { a: 1 },
      created: at(1),
      modified: at(1),
    },
  ]);
});

afterAll(async () => {
  await source.close();
  await target.close();
});

async function exportLines(database: TestDatabase, projectId: string): Promise<string[]> {
  const lines: string[] = [];
  await transferOn(database.handle).exportProject(projectId, (line) => {
    lines.push(line);
  });
  return lines;
}

async function* fromLines(lines: string[]): AsyncGenerator<string> {
  for (const line of lines) yield line.replace(/\n$/, '');
}

/** Every message's stored content, in the API's order, as raw bytes. */
async function storedContents(database: TestDatabase, projectId: string) {
  return database.handle.db
    .select({ dialogueId: messages.dialogueId, id: messages.id, content: messages.content })
    .from(messages)
    .where(eq(messages.projectId, projectId))
    .orderBy(asc(messages.dialogueId), asc(messages.created), asc(messages.seq));
}

describe('parley export / import', () => {
  let exported: string[];

  it('exports a header, every dialogue followed by its messages, the memories and an end line', async () => {
    exported = await exportLines(source, SOURCE_PROJECT);
    const types = exported.map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('parley-export');
    expect(types.at(-1)).toBe('end');
    expect(JSON.parse(exported.at(-1)!)).toEqual({
      type: 'end',
      counts: { dialogues: 2, messages: 1204, memories: 2 },
    });
    // Dialogues by creation: the thread (earlier) with its message, then the parent with its own.
    expect(types.slice(1, 4)).toEqual(['dialogue', 'message', 'dialogue']);
    expect(types.filter((t) => t === 'memory')).toHaveLength(2);
    const first = JSON.parse(exported[4]!) as { content: string };
    expect(contents).toContain(first.content);
  });

  it('imports into another project of another database, and exports from there identically', async () => {
    const counts = await transferOn(target.handle).importProject(TARGET_PROJECT, fromLines(exported));
    expect(counts).toEqual({ dialogues: 2, messages: 1204, memories: 2 });

    const again = await exportLines(target, TARGET_PROJECT);
    const header = (line: string) => JSON.parse(line) as { projectId: string };
    expect(header(again[0]!).projectId).toBe(TARGET_PROJECT);
    expect(again.slice(1)).toEqual(exported.slice(1));
  });

  it('keeps every message content byte for byte, and the order of equal timestamps', async () => {
    const before = await storedContents(source, SOURCE_PROJECT);
    const after = await storedContents(target, TARGET_PROJECT);
    expect(after).toHaveLength(1204);
    expect(after).toEqual(before);
    const big = after.find((row) => row.id === 'msg_big')!;
    expect(Buffer.byteLength(big.content)).toBe(1024 * 1024);
  });

  it('keeps counters, state, summary, thread links and timestamps', async () => {
    const [parent] = await target.handle.db
      .select()
      .from(dialogues)
      .where(and(eq(dialogues.projectId, TARGET_PROJECT), eq(dialogues.id, 'dlg_parent')));
    expect(parent).toMatchObject({
      status: 'ended',
      totalMessages: 1203,
      threadCount: 1,
      state: { step: 3, flags: { x: true } },
      summary: { text: 'A summary', model: 'extractive' },
      created: new Date(Date.UTC(2026, 0, 1) + 10),
    });
    const [thread] = await target.handle.db
      .select({ threadOf: dialogues.threadOf })
      .from(dialogues)
      .where(and(eq(dialogues.projectId, TARGET_PROJECT), eq(dialogues.id, 'dlg_thread')));
    expect(thread!.threadOf).toBe('dlg_parent');
  });

  it('queues every imported object for embedding (D40)', async () => {
    const [queued] = rowsOf<{ n: number }>(
      await target.handle.db.execute(
        sql`SELECT count(*)::int AS n FROM ${embeddingJobs} WHERE project_id = ${TARGET_PROJECT}`,
      ),
    );
    expect(queued!.n).toBe(2 + 1204 + 2);
  });

  it('queues nothing without an embedder (D79)', async () => {
    await insertProject(target.handle.db, { id: 'prj_transfer_lexical', name: 'lexical' });
    const counts = await transferOn(target.handle, false).importProject(
      'prj_transfer_lexical',
      fromLines(exported),
    );
    expect(counts).toEqual({ dialogues: 2, messages: 1204, memories: 2 });
    const [queued] = rowsOf<{ n: number }>(
      await target.handle.db.execute(
        sql`SELECT count(*)::int AS n FROM ${embeddingJobs} WHERE project_id = 'prj_transfer_lexical'`,
      ),
    );
    expect(queued!.n).toBe(0);
  });

  it('imports nothing when ids already exist in the project', async () => {
    await expect(
      transferOn(target.handle).importProject(TARGET_PROJECT, fromLines(exported)),
    ).rejects.toThrow(/already exist/);
    expect(await storedContents(target, TARGET_PROJECT)).toHaveLength(1204);
  });

  it('imports nothing from a truncated file or one whose counts differ', async () => {
    await insertProject(target.handle.db, { id: 'prj_transfer_other', name: 'other' });
    await expect(
      transferOn(target.handle).importProject('prj_transfer_other', fromLines(exported.slice(0, 900))),
    ).rejects.toThrow(/truncated/);
    const withoutOneMessage = exported.filter((_line, index) => index !== 10);
    await expect(
      transferOn(target.handle).importProject('prj_transfer_other', fromLines(withoutOneMessage)),
    ).rejects.toThrow(/announces/);
    expect(await storedContents(target, 'prj_transfer_other')).toHaveLength(0);
  });

  it('exports memories as format version 2: value as JSON text, description, searchText (D57)', async () => {
    expect(JSON.parse(exported[0]!).version).toBe(2);
    const memoryLines = exported.map((line) => JSON.parse(line)).filter((line) => line.type === 'memory');
    expect(memoryLines.find((line) => line.id === 'mem_2')).toMatchObject({
      value: '{"b":1,"a":"ünïcødé 🎉"}',
      description: 'a described one',
      searchText: 'a described one\nünïcødé 🎉',
    });
  });

  it('still reads version 1 files, whose memory values were plain strings', async () => {
    await insertProject(target.handle.db, { id: 'prj_transfer_v1', name: 'v1' });
    const lines = [
      '{"type":"parley-export","version":1,"projectId":"prj_old","exportedAt":"2025-01-01T00:00:00.000Z"}',
      JSON.stringify({
        type: 'memory',
        id: 'mem_old',
        namespace: null,
        label: 'likes',
        value: 'tea "strong"',
        tags: [],
        metadata: null,
        created: '2025-01-01T00:00:00.000Z',
        modified: '2025-01-01T00:00:00.000Z',
      }),
      '{"type":"end","counts":{"dialogues":0,"messages":0,"memories":1}}',
    ];
    expect(await transferOn(target.handle).importProject('prj_transfer_v1', fromLines(lines))).toEqual({
      dialogues: 0,
      messages: 0,
      memories: 1,
    });
    const [row] = await target.handle.db
      .select({ value: memories.value, description: memories.description, searchText: memories.searchText })
      .from(memories)
      .where(eq(memories.projectId, 'prj_transfer_v1'));
    expect(row).toEqual({
      value: '"tea \\"strong\\""',
      description: null,
      searchText: 'likes\ntea "strong"',
    });
  });

  it('refuses a version 2 memory whose value is not JSON text, importing nothing', async () => {
    await insertProject(target.handle.db, { id: 'prj_transfer_bad', name: 'bad' });
    const memory = exported.find((line) => JSON.parse(line).type === 'memory')!;
    const broken = JSON.stringify({ ...JSON.parse(memory), value: 'not json' });
    const lines = exported.map((line) => (line === memory ? broken : line));
    await expect(
      transferOn(target.handle).importProject('prj_transfer_bad', fromLines(lines)),
    ).rejects.toThrow(/value: must be JSON text/);
  });

  it('refuses a file that is not an export, and a project that does not exist', async () => {
    await expect(
      transferOn(target.handle).importProject('prj_transfer_other', fromLines(['{"hello":"world"}'])),
    ).rejects.toThrow(TransferError);
    await expect(transferOn(target.handle).importProject('prj_missing', fromLines(exported))).rejects.toThrow(
      /does not exist/,
    );
    await expect(exportLines(source, 'prj_missing')).rejects.toThrow(/does not exist/);
  });
});

describe('parley export / import on the command line', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('exports to a file, imports it into another project, and exports that identically to stdout', async () => {
    const store = await freshStoreEnv();
    const dir = mkdtempSync(join(tmpdir(), 'parley-export-'));
    try {
      // Seed through the database directly, then leave it to the CLI (one owner at a time).
      const handle = await openDatabase({
        databaseUrl: store.env.DATABASE_URL,
        dataDir: store.env.DATA_DIR ?? 'unused',
      });
      await runMigrations(handle);
      await insertProject(handle.db, { id: 'prj_cli_a', name: 'a' });
      await insertProject(handle.db, { id: 'prj_cli_b', name: 'b' });
      await handle.db.insert(dialogues).values({ projectId: 'prj_cli_a', id: 'dlg_cli', totalMessages: 2 });
      await handle.db.insert(messages).values(
        contents.slice(0, 2).map((content, i) => ({
          projectId: 'prj_cli_a',
          dialogueId: 'dlg_cli',
          id: `msg_cli_${i}`,
          role: 'user' as const,
          content,
          contentLength: Buffer.byteLength(content),
        })),
      );
      await handle.close();

      const file = join(dir, 'a.jsonl');
      const parley = (...args: string[]) => runNode(['src/cli.ts', ...args], { env: store.env });
      const exported = await parley('export', '--project', 'prj_cli_a', '--out', file);
      expect(exported.code).toBe(0);
      expect(JSON.parse(exported.stdout)).toEqual({ exported: { dialogues: 1, messages: 2, memories: 0 } });

      const imported = await parley('import', '--project', 'prj_cli_b', '--in', file);
      expect(imported.code).toBe(0);
      expect(JSON.parse(imported.stdout)).toEqual({ imported: { dialogues: 1, messages: 2, memories: 0 } });

      const again = await parley('export', '--project', 'prj_cli_b');
      expect(again.code).toBe(0);
      const original = readFileSync(file, 'utf8').split('\n');
      const copy = again.stdout.split('\n');
      expect(copy.slice(1)).toEqual(original.slice(1));
      expect(copy[2]).toContain(JSON.stringify(contents[0]));

      const failed = await parley('import', '--project', 'prj_cli_b', '--in', file);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('already exist');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await store.remove();
    }
  });
});

describe('readLines', () => {
  it('splits a byte stream into lines, across chunk borders and inside multi-byte characters', async () => {
    const text = 'first 👋\r\nsecond\n\n{"x":"é"}\nlast without newline';
    const bytes = Buffer.from(text);
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
    }
    const lines: string[] = [];
    for await (const line of readLines(chunks())) lines.push(line);
    expect(lines).toEqual(['first 👋', 'second', '', '{"x":"é"}', 'last without newline']);
  });
});
