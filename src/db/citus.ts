import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from './client.js';
import { REFERENCE_TABLES, TENANT_TABLES } from './tenant-tables.js';

// D49 made real: on a database with the Citus extension, the migrated tables are distributed by
// project_id after every migration run, so that a fresh cluster, an upgraded one and a table added
// by a later migration all end up the same. Without Citus this does nothing. docs/scaling.md
// says what it does and how to undo it.

/**
 * The tables distributed by project_id, each after the tables it references (dialogues before
 * messages): Citus wants a referenced distributed table in place before the table pointing at it.
 */
export const DISTRIBUTED_TABLES: readonly string[] = Object.freeze(
  TENANT_TABLES.filter((table) => !REFERENCE_TABLES.includes(table.name))
    .map((table) => table.name)
    .reverse(),
);

/** The table every distributed table is co-located with: a project's rows share one shard group. */
const ANCHOR = DISTRIBUTED_TABLES[0]!;

export async function hasCitus(db: Database): Promise<boolean> {
  const result = await db.execute(sql`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  return rowsOf(result).length > 0;
}

interface Placement {
  name: string;
  /** h: hash-distributed; n: reference table (repmodel t) or a local table in Citus' metadata (repmodel s). */
  method: string;
  replication: string;
  colocation: number;
}

async function placements(db: Database): Promise<Map<string, Placement>> {
  const result = await db.execute(sql`
    SELECT logicalrelid::regclass::text AS name, partmethod::text AS method,
           repmodel::text AS replication, colocationid AS colocation
    FROM pg_dist_partition`);
  return new Map(rowsOf<Placement>(result).map((row) => [row.name, row]));
}

const isReference = (placement: Placement | undefined) =>
  placement?.method === 'n' && placement.replication === 't';
const isDistributed = (placement: Placement | undefined) => placement?.method === 'h';

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

/**
 * Makes the reference tables reference tables and distributes every other tenant table by
 * project_id, co-located; does nothing when that is so already (a second run). The order Citus
 * needs, in one place:
 *
 * 1. The foreign keys touching a table still to convert are dropped (their definitions kept):
 *    once `projects` is a reference table, Citus turns every table that references it into a
 *    local table of its metadata, which can then neither be distributed nor co-located.
 * 2. Those local tables go back to plain tables (`undistribute_table`).
 * 3. Reference tables, then distributed tables, each after the tables it references.
 * 4. The foreign keys come back, now between reference and co-located distributed tables.
 *
 * Indexes (HNSW and GIN included) are per table: Citus creates them on every shard. The shard
 * count is the database's `citus.shard_count` when a table is first distributed.
 * One transaction: a failure leaves the tables as they were.
 */
export async function distributeTables(db: Database): Promise<void> {
  if (!(await hasCitus(db))) return;
  await db.transaction(async (tx) => {
    const database = tx as unknown as Database;
    // Citus runs DDL over one connection per worker in a transaction that touched a reference table.
    await tx.execute(sql`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    const before = await placements(database);
    const references = REFERENCE_TABLES.filter((name) => !isReference(before.get(name)));
    const distributed = DISTRIBUTED_TABLES.filter((name) => !isDistributed(before.get(name)));
    const pending = [...references, ...distributed];
    if (pending.length > 0) {
      const keys = rowsOf<ForeignKey>(
        await tx.execute(sql`
          SELECT conrelid::regclass::text AS "table", conname AS name, pg_get_constraintdef(oid) AS definition
          FROM pg_constraint
          WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
            AND (conrelid::regclass::text IN ${pending} OR confrelid::regclass::text IN ${pending})
          ORDER BY conrelid::regclass::text, conname`),
      );
      for (const key of keys) {
        await tx.execute(
          sql`ALTER TABLE ${sql.identifier(key.table)} DROP CONSTRAINT ${sql.identifier(key.name)}`,
        );
      }
      const current = await placements(database);
      for (const name of pending) {
        const placement = current.get(name);
        if (placement && !isReference(placement) && !isDistributed(placement)) {
          await tx.execute(sql`SELECT undistribute_table(${name})`);
        }
      }
      for (const name of references) await tx.execute(sql`SELECT create_reference_table(${name})`);
      for (const name of distributed) {
        const colocateWith = name === ANCHOR ? 'default' : ANCHOR;
        await tx.execute(
          sql`SELECT create_distributed_table(${name}, 'project_id', colocate_with => ${colocateWith})`,
        );
      }
      for (const key of keys) {
        await tx.execute(
          sql`ALTER TABLE ${sql.identifier(key.table)} ADD CONSTRAINT ${sql.identifier(key.name)} ${sql.raw(key.definition)}`,
        );
      }
    }
    // A table distributed apart from the others (by hand, or by an older release): co-locate it.
    const after = await placements(database);
    const anchor = after.get(ANCHOR)!;
    for (const name of DISTRIBUTED_TABLES) {
      if (after.get(name)!.colocation !== anchor.colocation) {
        await tx.execute(
          sql`SELECT update_distributed_table_colocation(${name}, colocate_with => ${ANCHOR})`,
        );
      }
    }
  });
}
