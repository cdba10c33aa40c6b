import { createHash, randomInt } from 'node:crypto';
import { fillPlaceholders } from 'drizzle-orm';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { preparedStatement } from '../src/db/prepared.js';
import { newId } from '../src/lib/ids.js';
import { findDialogueQuery } from '../src/modules/dialogues/repository.js';
import { type NewMessage, appendStatement, pageQuery } from '../src/modules/messages/repository.js';
import { keyOwnerQuery, projectSettingsQuery } from '../src/modules/projects/repository.js';
import { incrementShardStatement } from '../src/modules/usage/repository.js';

// The ceilings Parley's figures are compared with, served by a bare Fastify on the same kind of
// store: /framework/* returns JSON captured from Parley without doing anything (the framework
// ceiling); /sql/* issues the statements Parley issues for the same request, straight through the
// driver, prepared like Parley's (the database ceiling: what is left is Parley's own code);
// /minimal/* issues only what D35 needs (counter update and insert in one transaction, or the page
// query alone), the lower bound of any implementation. Started by bench/run.ts in its own
// process, like Parley.

interface RawClient {
  query<T>(
    text: string | { name: string; text: string; values: unknown[] },
    params?: unknown[],
  ): Promise<{ rows: T[] }>;
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

/** A statement prepared once per connection on Postgres under `name`, as Parley runs its hot ones. */
function prepared<T>(c: RawClient, name: string, text: string, values: unknown[]): Promise<{ rows: T[] }> {
  return handle.kind === 'postgres' ? c.query<T>({ name, text, values }) : c.query<T>(text, values);
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
  'dialogue_id, id, seq, namespace, role, content, content_length, name, tags, metadata, created, modified';
const newMessageId = (i: number) => `msg_${process.hrtime.bigint()}_${i}`;

// --- The statements Parley issues (src/modules/projects, usage, messages and dialogues repositories).

/**
 * One of Parley's built-once queries (src/db/prepared.ts, builtOnce) as the driver gets it: its
 * text, and its placeholders' values in their order. The text is Parley's own, so the ceiling
 * cannot drift from what Parley sends.
 */
function statementOf(
  query: { getQuery(): { sql: string; params: unknown[] } },
  name: string,
  values: Record<string, unknown>,
) {
  const { sql, params } = query.getQuery();
  return {
    name,
    text: sql,
    values: fillPlaceholders(params, values),
  };
}

const run = <T>(statement: ReturnType<typeof statementOf>) =>
  prepared<T>(client, statement.name, statement.text, statement.values);

/** Projects of the keys seen, as Parley's key cache (D76) keeps them: only their settings are read again. */
const knownKeys = new Map<string, string>();

/** Parley's key check (D6, D76): the key's owner the first time, its project's settings after. */
async function projectOfKey(authorization: string | undefined): Promise<string> {
  const keyHash = createHash('sha256')
    .update(authorization?.slice('Bearer '.length) ?? '', 'utf8')
    .digest('hex');
  const known = knownKeys.get(keyHash);
  if (known) {
    await run(statementOf(projectSettingsQuery(handle.db), 'project_settings', { id: known }));
    return known;
  }
  const { rows } = await run<{ project_id: string }>(
    statementOf(keyOwnerQuery(handle.db), 'key_owner', { keyHash }),
  );
  if (!rows[0]) throw new Error('unknown key');
  knownKeys.set(keyHash, rows[0].project_id);
  return rows[0].project_id;
}

app.post<{ Body: MessageBody }>('/sql/messages', async (request, reply) => {
  const { dialogueId, messages } = request.body;
  const projectId = await projectOfKey(request.headers.authorization);
  const rows: NewMessage[] = messages.map((message, i) => {
    const content = JSON.stringify(message.content);
    const text = typeof message.content === 'string' ? message.content : content;
    return {
      id: newMessageId(i),
      role: message.role as NewMessage['role'],
      content,
      contentLength: Buffer.byteLength(text),
      name: null,
      tags: [],
      metadata: null,
      searchText: text,
      created: null,
    };
  });
  // Parley's append statement itself (repository.appendStatement) in its standalone form (D174),
  // the write counter (D44) first in it, built and not run by Parley's code: the same text,
  // parameters and statement name as executePrepared sends, with its `message.created` events
  // (D63), numbered in it on the embedded store (D191). The benchmark runs Parley with
  // EMBEDDINGS=none, whose statement queues no jobs (D79). On PostgreSQL, numbering the events
  // comes after the response and is not here.
  const counter = incrementShardStatement(projectId, new Date().toISOString().slice(0, 7), randomInt(16));
  const append = preparedStatement(
    appendStatement(
      { projectId, dialogueId, namespace: null, expiredBefore: null },
      rows,
      {
        queueEmbeddings: false,
        events: { ids: rows.map(() => newId('evt')), numberAtInsert: handle.kind === 'pglite' },
      },
      [counter],
    ),
  );
  const stored = (await prepared(client, append.name, append.text, append.values)).rows;
  return reply.code(201).send({ dialogueId, items: stored });
});

/** Parley's dialogue lookup (the namespace rule D34, expiry D150, erasure D163) before a page of messages. */
const findDialogue = (projectId: string, id: string) =>
  run<Record<string, unknown>>(statementOf(findDialogueQuery(handle.db), 'find_dialogue', { projectId, id }));

/** Parley's keyset page (repository.listMessages). */
const pageOfMessages = (
  projectId: string,
  dialogueId: string,
  after: { created: string; seq: string } | undefined,
  limit: number,
  order: 'asc' | 'desc',
) => {
  const shape = { order, after: after !== undefined, from: false, before: false };
  return run(
    statementOf(pageQuery(handle.db, shape), `page_${order}_${after ? 'after' : 'first'}`, {
      projectId,
      dialogueId,
      limit,
      afterCreated: after?.created,
      afterSeq: after?.seq,
    }),
  );
};

type PageQuery = { dialogueId: string; created?: string; seq?: string };
const afterOf = (query: PageQuery) =>
  query.created && query.seq ? { created: query.created, seq: query.seq } : undefined;

app.get<{ Querystring: PageQuery }>('/sql/messages', async (request) => {
  const projectId = await projectOfKey(request.headers.authorization);
  const { dialogueId } = request.query;
  if (!(await findDialogue(projectId, dialogueId)).rows[0]) throw new Error('dialogue not found');
  const { rows } = await pageOfMessages(projectId, dialogueId, afterOf(request.query), 51, 'asc');
  return { items: rows.slice(0, 50), next: rows.length > 50 ? 'more' : null };
});

app.get<{ Params: { id: string } }>('/sql/dialogue/:id', async (request) => {
  const projectId = await projectOfKey(request.headers.authorization);
  const [dialogue] = (await findDialogue(projectId, request.params.id)).rows;
  if (!dialogue) throw new Error('dialogue not found');
  const { rows } = await pageOfMessages(projectId, request.params.id, undefined, 10, 'desc');
  return { ...dialogue, messages: rows.reverse() };
});

// --- The least any implementation must do: the counter update and the insert in one transaction
// (D35) for writes, the page query alone for reads. No key lookup, write counting or job.

app.post<{ Body: MessageBody }>('/minimal/messages', async (request, reply) => {
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
        newMessageId(i),
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

app.get<{ Querystring: PageQuery & { projectId: string } }>('/minimal/messages', async (request) => {
  const { projectId, dialogueId } = request.query;
  const after = afterOf(request.query);
  const { rows } = await client.query(
    `SELECT ${messageColumns} FROM messages WHERE project_id = $1 AND dialogue_id = $2
     ${after ? 'AND (created, seq) > ($3::timestamptz, $4::bigint)' : ''} ORDER BY created, seq LIMIT 51`,
    after ? [projectId, dialogueId, after.created, after.seq] : [projectId, dialogueId],
  );
  return { items: rows.slice(0, 50), next: rows.length > 50 ? 'more' : null };
});

app.get<{ Params: { id: string }; Querystring: { projectId: string } }>(
  '/minimal/dialogue/:id',
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

const shutdown = async () => {
  await app.close();
  await handle.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
await app.listen({ port: config.PORT, host: config.HOST });
