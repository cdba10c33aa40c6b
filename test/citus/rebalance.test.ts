import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { testServerIsCitus } from '../helpers/database.js';
import { V1, createDialogue } from '../helpers/dialogues.js';
import { eventually } from '../helpers/eventually.js';

// Growing the cluster while it is written to. A third worker joins (scripts/citus-cluster.sh
// start-node, citus_add_node) and the shards are rebalanced onto it (citus_rebalance_start, then
// citus_rebalance_wait in a transaction of its own) while writers keep adding messages through the
// app. Afterwards every acknowledged write is there, no other, and the counters are exact: each
// dialogue's totalMessages (D35) and each project's usage count (D44).
// Needs the private cluster of `npm run test:citus` (CITUS_CLUSTER_SCRIPT, CITUS_BASE_PORT).

const script = process.env.CITUS_CLUSTER_SCRIPT;
const basePort = Number(process.env.CITUS_BASE_PORT);
const runnable = (await testServerIsCitus()) && script !== undefined && basePort > 0;

const PROJECTS = 8;
const DIALOGUES_PER_PROJECT = 2;
const WRITERS = 8;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe.runIf(runnable)('a third worker joins and the shards move while writes go on (Citus)', () => {
  let ctx: TestContext;
  const spare = basePort + 3;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('keeps every acknowledged write and exact counters', async () => {
    const database = new URL(ctx.database.url!).pathname.slice(1);
    const projects: TestProject[] = [];
    const dialogues: { project: TestProject; id: string }[] = [];
    for (let p = 0; p < PROJECTS; p++) {
      const project = await createProject(ctx.app, { monthlyWriteQuota: 1_000_000 });
      projects.push(project);
      for (let d = 0; d < DIALOGUES_PER_PROJECT; d++) {
        const dialogue = await createDialogue(asProject(ctx.app, project), { label: `move ${p}.${d}` });
        dialogues.push({ project, id: dialogue.id });
      }
    }

    const acknowledged = new Map<string, string[]>(dialogues.map((d) => [d.id, []]));
    const failures: string[] = [];
    let writing = true;
    const writer = async (index: number) => {
      for (let n = 0; writing; n++) {
        const target = dialogues[(index + n * WRITERS) % dialogues.length]!;
        const response = await asProject(
          ctx.app,
          target.project,
        )({
          method: 'POST',
          url: `${V1}/message`,
          payload: { dialogueId: target.id, role: 'user', content: `writer ${index} message ${n}` },
        });
        if (response.statusCode === 201) {
          acknowledged.get(target.id)!.push((response.json() as { id: string }).id);
        } else {
          failures.push(`${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(index)));

    const db = ctx.app.db;
    const placementsOn = async (port: number) =>
      rowsOf<{ shards: number }>(
        await db.execute(sql`
          SELECT count(*)::int AS shards
          FROM pg_dist_placement p JOIN pg_dist_node n USING (groupid)
          JOIN pg_dist_shard s USING (shardid) JOIN pg_dist_partition t USING (logicalrelid)
          WHERE n.nodeport = ${port} AND t.partmethod = 'h'`),
      )[0]!.shards;
    let moved = 0;
    const started = Date.now();
    try {
      if (await listening(spare)) {
        // Left running by an earlier run on this cluster: give it this test's database.
        const admin = new pg.Client({
          host: '127.0.0.1',
          port: spare,
          user: 'postgres',
          database: 'postgres',
        });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${database}`);
        await admin.end();
        const node = new pg.Client({ host: '127.0.0.1', port: spare, user: 'postgres', database });
        await node.connect();
        await node.query('CREATE EXTENSION IF NOT EXISTS citus; CREATE EXTENSION IF NOT EXISTS vector');
        await node.end();
      } else {
        const result = spawnSync('bash', [script!, 'start-node', String(spare), String(basePort), database], {
          encoding: 'utf8',
        });
        expect(result.status, result.stderr).toBe(0);
      }
      await db.execute(sql`SELECT citus_add_node('127.0.0.1', ${spare})`);
      expect(await placementsOn(spare)).toBe(0);
      await db.execute(sql`SELECT citus_rebalance_start()`);
      await db.execute(sql`SELECT citus_rebalance_wait()`);
      moved = await placementsOn(spare);
      // Writes go on on the new layout: two more from each writer are acknowledged.
      const acknowledgedCount = () => [...acknowledged.values()].reduce((sum, ids) => sum + ids.length, 0);
      const beforeMove = acknowledgedCount();
      await eventually(() => acknowledgedCount() >= beforeMove + 2 * WRITERS, {
        what: 'writes acknowledged on the new layout',
        timeoutMs: 60_000,
      });
    } finally {
      writing = false;
      await load;
    }
    const seconds = (Date.now() - started) / 1000;
    const written = [...acknowledged.values()].reduce((sum, ids) => sum + ids.length, 0);
    console.log(
      `Rebalance onto a third worker: ${moved} shards of distributed tables moved in ${seconds.toFixed(1)} s ` +
        `while ${WRITERS} writers had ${written} writes acknowledged and ${failures.length} refused`,
    );
    expect(moved).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(0);
    expect(failures).toEqual([]);

    for (const { project, id } of dialogues) {
      const stored = rowsOf<{ id: string }>(
        await db.execute(
          sql`SELECT id FROM messages WHERE project_id = ${project.projectId} AND dialogue_id = ${id} ORDER BY id`,
        ),
      ).map((row) => row.id);
      expect(stored).toEqual([...acknowledged.get(id)!].sort());
      const [counters] = rowsOf<{ total: number }>(
        await db.execute(
          sql`SELECT total_messages AS total FROM dialogues WHERE project_id = ${project.projectId} AND id = ${id}`,
        ),
      );
      expect(counters!.total).toBe(stored.length);
    }
    for (const project of projects) {
      const [usage] = rowsOf<{ writes: number }>(
        await db.execute(
          sql`SELECT coalesce(sum(writes), 0)::int AS writes FROM usage_counters WHERE project_id = ${project.projectId}`,
        ),
      );
      const messages = dialogues
        .filter((d) => d.project === project)
        .reduce((sum, d) => sum + acknowledged.get(d.id)!.length, 0);
      // Every acknowledged write counted once: its dialogue creations and its messages (D44).
      expect(usage!.writes).toBe(DIALOGUES_PER_PROJECT + messages);
    }
  });
});
