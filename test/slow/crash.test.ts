import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { testServerUrl } from '../helpers/database.js';
import { type RunningServer, freshStoreEnv, spawnServerProcess } from '../helpers/processes.js';

// D48: a 2xx for a write means it is committed. The server process is killed with SIGKILL in the
// middle of a concurrent write load, several times, on the embedded database and on Postgres;
// then every acknowledged message must be stored with its content byte for byte, every batch
// must be all or nothing (acknowledged or not), and every dialogue's counters must match its rows.

const KILLS_PER_STORE = 4;
const WRITERS = 6;
const BOOTSTRAP_API_KEY = 'crash-test-key-0123456789abcdef';

/** Content texts as clients send them: the server must keep these exact bytes (D28). */
const CONTENT_SHAPES = [
  (n: number) => JSON.stringify(`plain text ${n} with émoji 👋 and "quotes"`),
  (n: number) => `{"b":${n},"a":[1,2,{"z":null}],"10":"ten","2":"two"}`,
  (n: number) => `[{"type":"text","text":"block ${n}"},{"type":"tool_call","id":"c${n}","args":{"q":"x"}}]`,
  (n: number) => `{"big":123456789012345678901234${n},"float":1.50,"exp":1E+2}`,
  (n: number) => `{ "spaced" : [ ${n} , 2 ] ,"nul":"\\u0000"}`,
];

interface Batch {
  dialogueId: string;
  /** message id -> content text sent */
  messages: Map<string, string>;
  acknowledged: boolean;
}

const stores = [
  { name: 'embedded database (PGlite)', postgres: false },
  ...(testServerUrl() ? [{ name: 'Postgres', postgres: true }] : []),
];

const running = new Set<RunningServer>();
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
});

async function api(server: RunningServer, method: string, path: string, body?: string) {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${BOOTSTRAP_API_KEY}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** Writers send single messages and batches of 1-5 until the server dies under them. */
async function writeUntilKilled(
  server: RunningServer,
  dialogueIds: string[],
  batches: Batch[],
  cycle: number,
) {
  let stopped = false;
  let acknowledgedHere = 0;
  const writer = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const dialogueId = dialogueIds[(w + n) % dialogueIds.length]!;
      const size = n % 3 === 0 ? 1 : 1 + ((w * 7 + n) % 5);
      const messages = new Map<string, string>();
      for (let i = 0; i < size; i++) {
        messages.set(`c${cycle}-w${w}-n${n}-i${i}`, CONTENT_SHAPES[(w + n + i) % CONTENT_SHAPES.length]!(n));
      }
      const items = [...messages].map(([id, content]) => `{"id":"${id}","role":"user","content":${content}}`);
      const single = size === 1 && n % 2 === 0;
      const body = single
        ? `{"dialogueId":"${dialogueId}","id":"${[...messages.keys()][0]}","role":"assistant","content":${[...messages.values()][0]}}`
        : `{"dialogueId":"${dialogueId}","messages":[${items.join(',')}]}`;
      const batch: Batch = { dialogueId, messages, acknowledged: false };
      batches.push(batch);
      try {
        const response = await api(server, 'POST', single ? '/message' : '/messages', body);
        if (response.status === 201) {
          batch.acknowledged = true;
          acknowledgedHere++;
        } else if (response.status < 500)
          throw new Error(`write refused: ${response.status} ${response.text}`);
      } catch (error) {
        if ((error as Error).message.startsWith('write refused')) throw error;
        // The connection died with the server: this batch is unacknowledged.
        stopped = true;
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  // Let the load run (a number of acknowledged writes that varies from cycle to cycle, so that the
  // kill lands at different points), then kill the server under it.
  const target = 15 + ((cycle * 7) % 20);
  const deadline = Date.now() + 120_000;
  while (acknowledgedHere < target) {
    if (Date.now() > deadline) throw new Error(`only ${acknowledgedHere} writes acknowledged in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  server.child.kill('SIGKILL');
  expect((await server.exited).signal).toBe('SIGKILL');
  stopped = true;
  await Promise.all(writers);
}

async function verify(handle: DatabaseHandle, dialogueIds: string[], batches: Batch[]) {
  const rows = rowsOf<{ dialogueId: string; id: string; content: string; contentLength: number }>(
    await handle.db.execute(
      sql`SELECT dialogue_id AS "dialogueId", id, content, content_length AS "contentLength" FROM messages`,
    ),
  );
  const stored = new Map(rows.map((row) => [`${row.dialogueId}/${row.id}`, row]));

  let acknowledged = 0;
  let unacknowledgedCommitted = 0;
  for (const batch of batches) {
    const present = [...batch.messages].filter(([id]) => stored.has(`${batch.dialogueId}/${id}`));
    // All or nothing, whatever the client heard.
    expect([0, batch.messages.size]).toContain(present.length);
    if (batch.acknowledged) {
      acknowledged++;
      expect(present.length).toBe(batch.messages.size);
    } else if (present.length > 0) {
      unacknowledgedCommitted++;
    }
    for (const [id, content] of present) {
      const row = stored.get(`${batch.dialogueId}/${id}`)!;
      expect(row.content).toBe(content);
      // D28: a string's length is that of the string itself, other content's that of its JSON text.
      const text = content.startsWith('"') ? (JSON.parse(content) as string) : content;
      expect(row.contentLength).toBe(Buffer.byteLength(text));
    }
  }
  // Nothing is stored that no writer sent.
  const sent = new Set(batches.flatMap((b) => [...b.messages.keys()].map((id) => `${b.dialogueId}/${id}`)));
  expect([...stored.keys()].filter((key) => !sent.has(key))).toEqual([]);

  // D35: every dialogue's counters agree with its rows.
  const counters = rowsOf<{
    id: string;
    total: number;
    counted: number;
    last: string | null;
    newest: string | null;
  }>(
    await handle.db.execute(sql`
      SELECT d.id, d.total_messages AS total, count(m.id)::int AS counted,
             d.last_message_created::text AS last, max(m.created)::text AS newest
      FROM dialogues d LEFT JOIN messages m ON m.project_id = d.project_id AND m.dialogue_id = d.id
      GROUP BY d.id, d.total_messages, d.last_message_created`),
  );
  expect(counters.map((c) => c.id).sort()).toEqual([...dialogueIds].sort());
  for (const dialogue of counters) {
    expect(dialogue.total).toBe(dialogue.counted);
    expect(dialogue.last).toBe(dialogue.newest);
  }
  return { acknowledged, unacknowledgedCommitted, stored: rows.length };
}

describe.each(stores)('SIGKILL under concurrent writes: $name', ({ postgres }) => {
  it(`loses no acknowledged write and leaves no half batch, over ${KILLS_PER_STORE} kills`, async () => {
    const store = await freshStoreEnv(postgres ? 'postgres' : 'pglite');
    const env = { ...store.env, BOOTSTRAP_API_KEY, RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn' };
    const batches: Batch[] = [];
    let dialogueIds: string[] = [];
    try {
      for (let cycle = 0; cycle < KILLS_PER_STORE; cycle++) {
        const server = await spawnServerProcess(env);
        running.add(server);
        await server.ready();
        if (cycle === 0) {
          for (let i = 0; i < 4; i++) {
            const created = await api(server, 'POST', '/dialogue', '{}');
            expect(created.status).toBe(201);
            dialogueIds.push((JSON.parse(created.text) as { id: string }).id);
          }
        } else {
          // After each restart the server serves again and sees every dialogue.
          const listed = await api(server, 'GET', '/dialogue?limit=100');
          expect(listed.status).toBe(200);
          const ids = (JSON.parse(listed.text) as { items: { id: string }[] }).items.map((d) => d.id);
          expect(ids.sort()).toEqual([...dialogueIds].sort());
        }
        await writeUntilKilled(server, dialogueIds, batches, cycle);
        running.delete(server);
      }

      // The last kill is recovered by opening the store directly, as the next start would.
      const handle = await openDatabase({
        databaseUrl: store.env.DATABASE_URL,
        dataDir: store.env.DATA_DIR ?? 'unused',
      });
      try {
        const outcome = await verify(handle, dialogueIds, batches);
        // The load really ran: many acknowledged writes in every run.
        expect(outcome.acknowledged).toBeGreaterThanOrEqual(KILLS_PER_STORE * 15);
        process.stdout.write(
          `crash test (${postgres ? 'Postgres' : 'PGlite'}): ${KILLS_PER_STORE} kills, ${batches.length} writes sent, ` +
            `${outcome.acknowledged} acknowledged, ${outcome.unacknowledgedCommitted} committed unacknowledged, ` +
            `${outcome.stored} messages stored, all verified\n`,
        );
      } finally {
        await handle.close();
      }
    } finally {
      dialogueIds = [];
      await store.remove();
    }
  });
});
