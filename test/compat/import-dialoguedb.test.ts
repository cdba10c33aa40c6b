import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialogueDbTransport } from '../helpers/dialoguedb-client.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  freshStoreEnv,
  runNode,
  spawnCli,
  startServerProcess,
} from '../helpers/processes.js';
import { type SelfSigned, selfSignedCertificate } from '../helpers/tls.js';
import { eventually } from '../helpers/eventually.js';

// `parley import-dialoguedb` (docs/api-decisions.md, "Moving in from DialogueDB"): a source
// Parley over TLS speaks DialogueDB's protocol; the importer copies its account into a project of
// a fresh target store, and everything read back through the client's calls is equal. Then an
// importer killed mid-way and run again: complete, nothing doubled.

const SOURCE_KEY = 'import-source-key-0123456789abcdef';
const DIALOGUES = 12;
const dir = mkdtempSync(join(tmpdir(), 'parley-import-ddb-'));
let tls: SelfSigned;
let source: RunningServer;
let sourceClient: DialogueDbTransport;
const cleanups: (() => Promise<void> | void)[] = [];

type Json = Record<string, unknown>;

function clientOf(server: RunningServer, apiKey: string) {
  const client = new DialogueDbTransport({
    endpoint: `https://localhost:${new URL(server.baseUrl).port}`,
    apiKey,
    ca: tls.cert,
    retryDelaysMs: [100, 200, 400],
  });
  cleanups.push(() => client.close());
  return client;
}

async function walk(client: DialogueDbTransport, path: string, query: Record<string, string | undefined>) {
  const items: Json[] = [];
  let next: string | undefined;
  do {
    const page = await client.request<{ items: Json[]; next?: string | null }>('GET', path, {
      query: { ...query, limit: 50, order: 'asc', next },
    });
    items.push(...page.items);
    next = page.next ?? undefined;
  } while (next);
  return items;
}

/** An account as the client reads it: every dialogue with its messages, every memory (no project id). */
async function account(client: DialogueDbTransport) {
  const strip = ({ projectId: _p, ...rest }: Json) => rest;
  const dialogues = [];
  for (const listed of await walk(client, 'dialogue', {})) {
    const namespace = (listed.namespace as string | null) ?? undefined;
    const { messages: _m, ...dialogue } = await client.request<Json>('GET', `dialogue/${listed.id}`, {
      query: { namespace },
    });
    const messages = await walk(client, 'messages', { dialogueId: listed.id as string, namespace });
    dialogues.push({ ...strip(dialogue), messages: messages.map(strip) });
  }
  const memories = (await walk(client, 'memory', {})).map(strip);
  return { dialogues, memories };
}

/** A fresh target store with a project `moved` and a key of it. */
async function target() {
  const store = await freshStoreEnv();
  cleanups.push(store.remove);
  const created = await runNode(['src/cli.ts', 'project', 'create', 'moved'], { env: store.env });
  expect(created.code, created.stderr).toBe(0);
  const { project, apiKey } = JSON.parse(created.stdout) as { project: { id: string }; apiKey: string };
  return { env: store.env, projectId: project.id, apiKey };
}

function importArgs(projectId: string) {
  return [
    'import-dialoguedb',
    '--endpoint',
    `https://localhost:${new URL(source.baseUrl).port}`,
    '--key',
    SOURCE_KEY,
    '--project',
    projectId,
  ];
}

/** The target read through its own server over TLS, then stopped (PGlite has one process at a time). */
async function readTarget(t: { env: Record<string, string>; apiKey: string }) {
  const server = await startServerProcess({
    ...t.env,
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
  });
  try {
    return await account(clientOf(server, t.apiKey));
  } finally {
    await server.stop('SIGKILL');
  }
}

beforeAll(async () => {
  tls = selfSignedCertificate(dir);
  const store = await freshStoreEnv();
  cleanups.push(store.remove);
  source = await startServerProcess({
    ...store.env,
    BOOTSTRAP_API_KEY: SOURCE_KEY,
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
  });
  cleanups.push(async () => {
    await source.stop('SIGKILL');
  });
  sourceClient = clientOf(source, SOURCE_KEY);
  // An account as an application fills it: namespaces, history with its own timestamps, threads
  // (one listed before its parent by its created), state, ended dialogues, rich content, memories.
  const call = sourceClient.request.bind(sourceClient);
  for (let i = 0; i < DIALOGUES; i++) {
    const namespace = i % 3 === 0 ? undefined : `user-${i % 3}`;
    const parent = i === 5 ? 'dlg-0' : i === 7 ? 'dlg-5' : undefined;
    await call('POST', 'dialogue', {
      body: {
        id: `dlg-${i}`,
        namespace,
        threadOf: parent,
        label: `conversation ${i}`,
        created: new Date(Date.UTC(2024, 0, 20 - i, 9)).toISOString(),
        state: { step: i, nested: { ok: true } },
        tags: [`t${i % 2}`],
        metadata: { index: i },
        messages: [{ role: 'system', content: 'Be brief.' }],
      },
    });
    await call('POST', 'messages', {
      query: { dialogueId: `dlg-${i}`, namespace },
      body: Array.from({ length: 20 }, (_, j) => ({
        id: `msg-${i}-${j}`,
        role: j % 2 === 0 ? 'user' : 'assistant',
        content: j === 3 ? [{ type: 'text', text: `block ${i}` }] : `line ${j} of ${i}`,
        name: j === 1 ? 'agent' : undefined,
        tags: j === 2 ? ['marked'] : undefined,
        metadata: j === 4 ? { score: 0.5 } : undefined,
      })),
    });
    if (i % 4 === 1) await call('POST', `dialogue/dlg-${i}/end`, { query: { namespace }, body: {} });
  }
  await call('POST', 'summary', { body: { dialogueId: 'dlg-0' } });
  const values: unknown[] = ['text', 7, false, { a: [1, 2] }, ['x']];
  for (const [i, value] of values.entries()) {
    await call('POST', 'memory', {
      body: {
        id: `mem-${i}`,
        value,
        description: `memory ${i}`,
        tags: ['m'],
        metadata: { i },
        label: `L${i}`,
      },
    });
  }
}, SPAWNING_TEST_TIMEOUT_MS);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('parley import-dialoguedb', () => {
  it(
    'copies the whole account into the project, keeping ids, timestamps, threads, state and order',
    async () => {
      const expected = await account(sourceClient);
      expect(expected.dialogues).toHaveLength(DIALOGUES);
      const into = await target();
      const run = await runNode(['src/cli.ts', ...importArgs(into.projectId)], {
        env: { ...into.env, NODE_EXTRA_CA_CERTS: tls.certFile },
        timeoutMs: 120_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        project: into.projectId,
        imported: {
          dialogues: DIALOGUES,
          messages: DIALOGUES * 21,
          memories: 5,
          skippedDialogues: 0,
          skippedMemories: 0,
        },
      });
      // Not a terminal: plain progress lines, the last one complete.
      expect(run.stderr.trim().split('\n').at(-1)).toBe(
        `dialogues ${DIALOGUES}/${DIALOGUES}, messages ${DIALOGUES * 21}/${DIALOGUES * 21}, memories 5`,
      );
      expect(await readTarget(into)).toEqual(expected);
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );

  it(
    'resumes after being killed mid-way: the result is complete and nothing is doubled',
    async () => {
      const expected = await account(sourceClient);
      const into = await target();
      const env = { ...into.env, NODE_EXTRA_CA_CERTS: tls.certFile };
      const first = spawnCli(importArgs(into.projectId), env);
      // Killed once two dialogues are in, while the others are still to come.
      await eventually(() => /^dialogues 2\//m.test(first.output().stderr), {
        what: 'two dialogues imported',
        timeoutMs: 120_000,
        intervalMs: 10,
      });
      process.kill(first.pid, 'SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');

      const second = await runNode(['src/cli.ts', ...importArgs(into.projectId)], {
        env,
        timeoutMs: 120_000,
      });
      expect(second.code, second.stderr).toBe(0);
      const { imported } = JSON.parse(second.stdout) as {
        imported: { dialogues: number; memories: number; skippedDialogues: number; skippedMemories: number };
      };
      // The first run had imported some dialogues completely, and no more than it could have.
      expect(imported.skippedDialogues).toBeGreaterThanOrEqual(2);
      expect(imported.skippedDialogues).toBeLessThan(DIALOGUES);
      expect(imported.dialogues + imported.skippedDialogues).toBe(DIALOGUES);
      expect(imported.memories + imported.skippedMemories).toBe(5);
      expect(await readTarget(into)).toEqual(expected);

      // A third run finds everything there and writes nothing.
      const third = await runNode(['src/cli.ts', ...importArgs(into.projectId)], { env, timeoutMs: 120_000 });
      expect(JSON.parse(third.stdout).imported).toEqual({
        dialogues: 0,
        messages: 0,
        memories: 0,
        skippedDialogues: DIALOGUES,
        skippedMemories: 5,
      });
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );
});
