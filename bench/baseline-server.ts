import Fastify from 'fastify';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';

// The two ceilings Parley's figures are compared with, served by a bare Fastify on the same kind of
// store: /framework/* returns JSON captured from Parley without doing anything (the framework
// ceiling); /sql/* issues the same SQL as Parley's write and read paths straight through the driver
// (the database ceiling). Started by bench/run.ts in its own process, like Parley.

interface RawClient {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

const config = loadConfig();
const handle = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolMax: config.DATABASE_POOL_MAX,
});
await runMigrations(handle);
const client = (
  handle.db as unknown as {
    $client: RawClient & { connect?: () => Promise<RawClient & { release(): void }> };
  }
).$client;

/** Runs fn in a transaction on one connection (a pooled client on Postgres, the single one on PGlite). */
async function inTransaction<T>(fn: (c: RawClient) => Promise<T>): Promise<T> {
  if (client.connect) {
    const c = await client.connect();
    try {
      await c.query('BEGIN');
      const result = await fn(c);
      await c.query('COMMIT');
      return result;
    } catch (error) {
      await c.query('ROLLBACK');
      throw error;
    } finally {
      c.release();
    }
  }
  return (client as unknown as { transaction<T>(fn: (c: RawClient) => Promise<T>): Promise<T> }).transaction(
    fn,
  );
}

const canned = new Map<string, string>();
const app = Fastify({ bodyLimit: 32 * 1024 * 1024 });
app.get('/readyz', async () => ({ status: 'ready' }));
app.put<{ Params: { name: string }; Body: unknown }>('/canned/:name', async (request) => {
  canned.set(request.params.name, JSON.stringify(request.body));
  return { ok: true };
});
app.post<{ Params: { name: string } }>('/framework/:name', async (request, reply) =>
  reply.code(201).type('application/json').send(canned.get(request.params.name)),
);
app.get<{ Params: { name: string } }>('/framework/:name', async (request, reply) =>
  reply.type('application/json').send(canned.get(request.params.name)),
);

interface MessageBody {
  projectId: string;
  dialogueId: string;
  messages: { role: string; content: unknown }[];
}

const messageColumns =
  'project_id, dialogue_id, id, seq, namespace, role, content, content_length, name, tags, metadata, created, modified';

// The write path of POST /message and POST /messages: counter update (row lock, status check) and
// inserts in one transaction, as D35 asks.
app.post<{ Body: MessageBody }>('/sql/messages', async (request, reply) => {
  const { projectId, dialogueId, messages } = request.body;
  const rows = await inTransaction(async (c) => {
    const updated = await c.query(
      `UPDATE dialogues SET total_messages = total_messages + $3, last_message_created = greatest(last_message_created, now()),
         modified = now() WHERE project_id = $1 AND id = $2 AND status = 'active' RETURNING id`,
      [projectId, dialogueId, messages.length],
    );
    if (updated.rows.length === 0) throw new Error('dialogue not found');
    const values: unknown[] = [];
    const tuples = messages.map((message, i) => {
      const content = JSON.stringify(message.content);
      values.push(
        projectId,
        dialogueId,
        `msg_${process.hrtime.bigint()}_${i}`,
        message.role,
        content,
        Buffer.byteLength(content),
        content,
      );
      const base = i * 7;
      return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, $${base + 7}, now(), now())`;
    });
    return (
      await c.query(
        `INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, created, modified)
         VALUES ${tuples.join(', ')} RETURNING ${messageColumns}`,
        values,
      )
    ).rows;
  });
  return reply.code(201).send({ dialogueId, items: rows });
});

// The read path of GET /messages: one keyset page.
app.get<{ Querystring: { projectId: string; dialogueId: string; created?: string; seq?: string } }>(
  '/sql/messages',
  async (request) => {
    const { projectId, dialogueId, created, seq } = request.query;
    const after = created ? 'AND (created, seq) > ($3::timestamptz, $4::bigint)' : '';
    const params = created ? [projectId, dialogueId, created, seq] : [projectId, dialogueId];
    const { rows } = await client.query(
      `SELECT ${messageColumns} FROM messages WHERE project_id = $1 AND dialogue_id = $2 ${after}
       ORDER BY created, seq LIMIT 51`,
      params,
    );
    return { items: rows.slice(0, 50), next: rows.length > 50 ? 'more' : null };
  },
);

// Set-up only (not measured): the (created, seq) key of the message at a given depth.
app.get<{ Querystring: { projectId: string; dialogueId: string; depth: string } }>(
  '/setup/key',
  async (request) => {
    const { projectId, dialogueId, depth } = request.query;
    const { rows } = await client.query<{ created: Date; seq: number }>(
      'SELECT created, seq FROM messages WHERE project_id = $1 AND dialogue_id = $2 ORDER BY created, seq OFFSET $3 LIMIT 1',
      [projectId, dialogueId, Number(depth)],
    );
    return { created: new Date(rows[0]!.created).toISOString(), seq: rows[0]!.seq };
  },
);

// The read path of GET /dialogue/{id}: the dialogue and its 10 most recent messages.
app.get<{ Params: { id: string }; Querystring: { projectId: string } }>(
  '/sql/dialogue/:id',
  async (request) => {
    const { projectId } = request.query;
    const [dialogue] = (
      await client.query('SELECT * FROM dialogues WHERE project_id = $1 AND id = $2', [
        projectId,
        request.params.id,
      ])
    ).rows;
    const { rows } = await client.query(
      `SELECT ${messageColumns} FROM messages WHERE project_id = $1 AND dialogue_id = $2 ORDER BY created DESC, seq DESC LIMIT 10`,
      [projectId, request.params.id],
    );
    return { ...(dialogue as object), messages: rows.reverse() };
  },
);

const shutdown = async () => {
  await app.close();
  await handle.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
await app.listen({ port: config.PORT, host: config.HOST });
