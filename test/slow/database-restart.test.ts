import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, freePort, spawnServerProcess } from '../helpers/processes.js';

// D77 against a real restart: a private PostgreSQL cluster of this test's own (initdb and pg_ctl
// from the machine's binaries, in a temporary directory, on a free port; the machine's pgvector
// files serve every cluster of that version) is stopped and started, then restarted, under a
// write load on a Parley server process. Nothing else on the machine is touched.
//
// Checked: the server never answers 500 and never drops a connection (every answer is 201/200 or
// 503 SERVICE_UNAVAILABLE with Retry-After), it does not crash, /readyz is 503 while the database
// is down (within 2 s of it going), service is back within 5 s of the database accepting
// connections, every acknowledged write is stored, and every refused one is stored exactly once
// after a retry with its Idempotency-Key.

const BIN = process.env.PG_BIN_DIR || '/usr/lib/postgresql/15/bin';
const available = existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl'));
const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const BOOTSTRAP_API_KEY = 'restart-test-key-0123456789abcdef';

/** Runs a PostgreSQL binary, as the `postgres` OS user when this runs as root (initdb refuses root). */
function pgTool(tool: string, args: string[]) {
  const command = join(BIN, tool);
  return asRoot
    ? run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 120_000 })
    : run(command, args, { timeout: 120_000 });
}

interface Cluster {
  dir: string;
  port: number;
  url: string;
  start(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  restart(): Promise<void>;
}

async function createCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-pg-'));
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await pgTool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  // Its own socket directory and port; TCP on the loopback only.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  const ctl = (...args: string[]) => pgTool('pg_ctl', ['-D', data, '-w', '-t', '60', ...args]);
  return {
    dir,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/parley`,
    start: async () => {
      await ctl('-o', options, '-l', join(dir, 'server.log'), 'start');
    },
    stop: async (mode = 'fast') => {
      await ctl('-m', mode, 'stop');
    },
    restart: async () => {
      await ctl('-o', options, '-l', join(dir, 'server.log'), '-m', 'fast', 'restart');
    },
  };
}

interface Write {
  dialogueId: string;
  id: string;
  key: string;
  status?: number;
}

const violations: string[] = [];

async function call(server: RunningServer, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${BOOTSTRAP_API_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    retryAfter: response.headers.get('retry-after'),
  };
}

/** Records any answer D77 does not allow (anything but `ok`, or 503 SERVICE_UNAVAILABLE with Retry-After). */
function check(
  what: string,
  answer: { status: number; text: string; retryAfter: string | null },
  ok: number,
) {
  if (answer.status === ok) return;
  const code =
    answer.status === 503 ? (JSON.parse(answer.text) as { error?: { code?: string } }).error?.code : '';
  if (answer.status !== 503 || code !== 'SERVICE_UNAVAILABLE' || !(Number(answer.retryAfter) >= 1)) {
    violations.push(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  }
}

function sendWrite(server: RunningServer, write: Write) {
  return call(
    server,
    'POST',
    '/api/v1/message',
    { dialogueId: write.dialogueId, id: write.id, role: 'user', content: `content of ${write.id}` },
    write.key,
  );
}

function startLoad(server: RunningServer, dialogueIds: string[]) {
  const writes: Write[] = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const write: Write = {
        dialogueId: dialogueIds[(w + n) % dialogueIds.length]!,
        id: `w${w}-n${n}`,
        key: `k-w${w}-n${n}`,
      };
      writes.push(write);
      try {
        const answer = await sendWrite(server, write);
        check(`POST /message ${write.id}`, answer, 201);
        write.status = answer.status;
        if (answer.status !== 201) await sleep(50);
      } catch (error) {
        // The server dropped the connection or is gone: never allowed.
        violations.push(`POST /message ${write.id}: ${(error as Error).message}`);
        await sleep(50);
      }
    }
  };
  const reader = async () => {
    for (let n = 0; !stopped; n++) {
      try {
        const answer = await call(
          server,
          'GET',
          `/api/v1/messages?dialogueId=${dialogueIds[n % dialogueIds.length]}&limit=5`,
        );
        check('GET /messages', answer, 200);
        if (answer.status !== 200) await sleep(50);
      } catch (error) {
        violations.push(`GET /messages: ${(error as Error).message}`);
        await sleep(50);
      }
    }
  };
  const running = Promise.all([...Array.from({ length: 6 }, (_, w) => writer(w)), reader()]);
  return {
    writes,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Polls /readyz every 100 ms and keeps every answer with its time, until stopped. */
function watchReadiness(server: RunningServer) {
  const answers: { at: number; status: number; ms: number }[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const at = performance.now();
      try {
        const response = await fetch(`${server.baseUrl}/readyz`);
        await response.text();
        answers.push({ at, status: response.status, ms: performance.now() - at });
      } catch (error) {
        violations.push(`GET /readyz: ${(error as Error).message}`);
      }
      await sleep(100);
    }
  })();
  return {
    answers,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** Time from `since` until a write is acknowledged again (one probe every 100 ms, kept in `probes`). */
async function resumedAfter(server: RunningServer, since: number, dialogueId: string, probes: Write[]) {
  for (;;) {
    const probe: Write = { dialogueId, id: `probe-${probes.length}`, key: `probe-${probes.length}` };
    probes.push(probe);
    const answer = await sendWrite(server, probe);
    check(`resume ${probe.id}`, answer, 201);
    probe.status = answer.status;
    if (answer.status === 201) return performance.now() - since;
    if (performance.now() - since > 30_000) throw new Error('service did not resume within 30 s');
    await sleep(100);
  }
}

describe.runIf(available)('the database restarts under a write load (private PostgreSQL cluster)', () => {
  let cluster: Cluster | undefined;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    cluster = await createCluster();
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url.replace(/\/parley$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE parley');
    await admin.end();
    server = await spawnServerProcess({
      DATABASE_URL: cluster.url,
      BOOTSTRAP_API_KEY,
      RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'warn',
    });
    await server.ready(120_000);
  });

  afterAll(async () => {
    // Only what this file started: its server (by its pid) and its cluster (pg_ctl signals the
    // postmaster named in the cluster's own pid file).
    await server?.stop('SIGKILL');
    if (cluster) {
      await cluster.stop('immediate').catch(() => {
        const pidFile = join(cluster!.dir, 'data', 'postmaster.pid');
        if (!existsSync(pidFile)) return;
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGKILL');
      });
      rmSync(cluster.dir, { recursive: true, force: true });
    }
  });

  it('answers only 2xx or 503, never crashes, says 503 on /readyz while down, resumes within 5 s, loses no write', async () => {
    const app = server!;
    const db = cluster!;
    const dialogueIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await call(app, 'POST', '/api/v1/dialogue', {});
      expect(created.status, created.text).toBe(201);
      dialogueIds.push((JSON.parse(created.text) as { id: string }).id);
    }
    const load = startLoad(app, dialogueIds);
    const readiness = watchReadiness(app);
    const probes: Write[] = [];
    await sleep(1_500);

    // 1. Stopped (fast: sessions are terminated, 57P01), down for 3 s, started again.
    const stopAsked = performance.now();
    await db.stop('fast');
    const down = performance.now();
    await sleep(3_000);
    const readyWhileDown = readiness.answers.filter((a) => a.at >= down + 2_000 && a.at < down + 3_000);
    const firstUnready = readiness.answers.find((a) => a.at >= stopAsked && a.status === 503);
    await db.start();
    const up = performance.now();
    const first = await resumedAfter(app, up, dialogueIds[0]!, probes);

    // 2. Restarted in one go.
    await sleep(1_500);
    await db.restart();
    const upAgain = performance.now();
    const second = await resumedAfter(app, upAgain, dialogueIds[1]!, probes);

    await sleep(1_000);
    await load.stop();
    await readiness.stop();

    // Never crashed, never a 500 or a dropped connection.
    expect(app.child.exitCode).toBeNull();
    expect(app.child.signalCode).toBeNull();
    expect(violations).toEqual([]);

    // /readyz: 503 within 2 s of the database going, all the while it was down, never slow.
    expect(firstUnready).toBeDefined();
    expect(firstUnready!.at + firstUnready!.ms - down).toBeLessThan(2_000);
    expect(readyWhileDown.length).toBeGreaterThan(0);
    expect(readyWhileDown.every((a) => a.status === 503)).toBe(true);
    expect(Math.max(...readiness.answers.map((a) => a.ms))).toBeLessThan(2_000);
    expect(readiness.answers.at(-1)!.status).toBe(200);

    // Back within 5 s of the database accepting connections, both times.
    expect(first).toBeLessThan(5_000);
    expect(second).toBeLessThan(5_000);

    // The load met the outage and was served on both sides of it.
    const answered = [...load.writes, ...probes].filter((w) => w.status !== undefined);
    const refused = answered.filter((w) => w.status === 503);
    const acknowledged = answered.filter((w) => w.status === 201);
    expect(refused.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(20);

    // Every refused write retried with its Idempotency-Key is stored once; every acknowledged
    // one is stored.
    for (const write of refused) {
      const answer = await sendWrite(app, write);
      expect(answer.status, answer.text).toBe(201);
    }
    const direct = new pg.Client({ connectionString: db.url });
    await direct.connect();
    try {
      const rows = (await direct.query<{ id: string }>('SELECT id FROM messages')).rows.map((r) => r.id);
      expect(new Set(rows).size).toBe(rows.length);
      expect(rows.sort()).toEqual(answered.map((w) => w.id).sort());
      const counters = await direct.query<{ total: number; counted: number }>(`
        SELECT d.total_messages AS total, count(m.id)::int AS counted
        FROM dialogues d LEFT JOIN messages m ON m.project_id = d.project_id AND m.dialogue_id = d.id
        GROUP BY d.id, d.total_messages`);
      for (const row of counters.rows) expect(Number(row.total)).toBe(row.counted);
    } finally {
      await direct.end();
    }
    process.stdout.write(
      `database restart: ${answered.length} writes (${acknowledged.length} acknowledged, ${refused.length} answered 503 ` +
        `and stored once after a retry), pg_ctl stop took ${Math.round(down - stopAsked)} ms and /readyz said 503 ` +
        `${Math.round(firstUnready!.at + firstUnready!.ms - stopAsked)} ms after it began, resumed ${Math.round(first)} ms after start and ${Math.round(second)} ms after restart\n`,
    );
  });
});
