import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from './client.js';

// D192: PGlite runs PostgreSQL as one backend inside this process, and no autovacuum launcher
// runs beside it. Without this nothing would ever remove the embedded store's dead row versions
// (every embedded message rewrites its row; every job the embedding queue finishes is deleted) or
// gather the planner's statistics. Every EMBEDDED_VACUUM_INTERVAL_MS the server does what
// autovacuum would: it picks the tables by autovacuum's own formula and settings, and vacuums or
// analyzes them one statement at a time, so that requests run between two tables. PostgreSQL runs
// its own autovacuum, and this never runs there.

interface VacuumLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TableMaintenance {
  /** Schema-qualified and quoted, as `format('%I.%I')` writes it. */
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The counters are reported by the backend when it goes idle, at most once a second: asking for
 * the next report to be forced makes the statement after this one see every change made so far.
 */
const FORCE_STATISTICS_REPORT = sql`SELECT pg_stat_force_next_flush()`;

const setting = (name: string) => sql.raw(`current_setting('${name}')::float8`);

/**
 * The tables autovacuum would vacuum or analyze now (PostgreSQL's relation_needs_vacanalyze with
 * the global settings): dead rows, or rows inserted since the last vacuum, past their threshold
 * of a base plus a share of the table; rows changed since the last analyze past theirs; a table
 * whose oldest unfrozen transaction is older than autovacuum_freeze_max_age. Added for an
 * embedded store: a table never vacuumed or analyzed (its row estimate is -1) that holds data,
 * since the counters start again from zero each time the store is opened.
 */
export async function tablesDue(db: Executor): Promise<TableMaintenance[]> {
  await db.execute(FORCE_STATISTICS_REPORT);
  const estimate = sql`greatest(c.reltuples, 0)`;
  const neverCounted = sql`(c.reltuples < 0 AND pg_relation_size(c.oid) > 0)`;
  const result = await db.execute(sql`
    SELECT "table", vacuum, "analyze" FROM (
      SELECT format('%I.%I', s.schemaname, s.relname) AS "table",
        (s.n_dead_tup > ${setting('autovacuum_vacuum_threshold')}
            + ${setting('autovacuum_vacuum_scale_factor')} * ${estimate}
          OR s.n_ins_since_vacuum > ${setting('autovacuum_vacuum_insert_threshold')}
            + ${setting('autovacuum_vacuum_insert_scale_factor')} * ${estimate}
          OR age(c.relfrozenxid) > ${setting('autovacuum_freeze_max_age')}
          OR ${neverCounted}) AS vacuum,
        (s.n_mod_since_analyze > ${setting('autovacuum_analyze_threshold')}
            + ${setting('autovacuum_analyze_scale_factor')} * ${estimate}
          OR ${neverCounted}) AS "analyze"
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    ) due
    WHERE vacuum OR "analyze"
    ORDER BY "table"`);
  return rowsOf<TableMaintenance>(result);
}

const maintenanceStatement = ({ table, vacuum, analyze }: TableMaintenance) =>
  sql.raw(vacuum ? `VACUUM ${analyze ? '(ANALYZE) ' : ''}${table}` : `ANALYZE ${table}`);

export interface EmbeddedVacuumOptions {
  db: Executor;
  /** EMBEDDED_VACUUM_INTERVAL_MS: the pause between two rounds. */
  intervalMs: number;
  logger?: VacuumLogger;
}

/** One round: every table due, one statement each, until done or `signal` aborts. Returns what ran. */
export async function vacuumTablesDue(
  db: Executor,
  logger?: VacuumLogger,
  signal?: AbortSignal,
): Promise<TableMaintenance[]> {
  const done: TableMaintenance[] = [];
  for (const table of await tablesDue(db)) {
    if (signal?.aborted) break;
    const started = performance.now();
    await db.execute(maintenanceStatement(table));
    done.push(table);
    // Each statement holds the store's one connection: its time is how long requests waited.
    logger?.info(
      { ...table, durationMs: Math.round(performance.now() - started) },
      'embedded store maintenance',
    );
  }
  return done;
}

export interface EmbeddedVacuum {
  /** Finishes the statement in hand, then stops. */
  stop(): Promise<void>;
}

/** A round every `intervalMs`, the first one interval after the start, until `stop()`. */
export function startEmbeddedVacuum(options: EmbeddedVacuumOptions): EmbeddedVacuum {
  const stopped = new AbortController();
  const loop = (async () => {
    for (;;) {
      await sleep(options.intervalMs, undefined, { signal: stopped.signal }).catch(() => {});
      if (stopped.signal.aborted) return;
      try {
        await vacuumTablesDue(options.db, options.logger, stopped.signal);
      } catch (error) {
        // The next round looks again; nothing a round does needs finishing.
        options.logger?.warn({ err: error }, 'embedded store maintenance failed; retrying');
      }
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await loop;
    },
  };
}
