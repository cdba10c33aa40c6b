import { mkdirSync } from 'node:fs';
import type { Logger } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type DataDirOwner, lockDataDir } from './data-dir-lock.js';
import { isTransientConnectionError } from './errors.js';
import * as schema from './schema.js';

/** One Drizzle type for both stores, so that no code above this folder knows which one runs. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction or the database itself: repository functions accept either, so a service can run them in its caller's transaction. */
export type Executor = Pick<
  Database,
  '_' | 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'
>;

/** Rows of a raw `db.execute(sql...)`: both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Database;
  /** The read replica when READ_DATABASE_URL is set, the primary otherwise. */
  readDb: Database;
  /** Pool statistics for /metrics; zeros on the embedded database. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
  /** Runs fn with a connection of its own (migrations under an advisory lock). */
  withDedicatedConnection<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` on a connection of its own, outside the pool (D66: one per process,
   * whatever the number of open streams), and keeps listening across connection losses.
   */
  listen(channel: string, listener: ChannelListener): Promise<{ close(): Promise<void> }>;
}

interface ChannelListener {
  onNotification(payload: string): void;
  /**
   * The listening connection was lost and is back: notifications sent meanwhile were missed, so
   * whoever waits for them should look again. Also called once when listening first starts.
   */
  onListening(): void;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  readDatabaseUrl?: string;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /**
   * An embedded database in memory starts as a copy of this data directory (a PGlite
   * `dumpDataDir` tarball) instead of an empty cluster: tests start each database from one already
   * migrated, which skips PGlite's initdb (about 1.5 s of CPU each).
   */
  initialDataDir?: Blob;
  poolMax?: number;
  /**
   * Keep hot statements prepared by name on each connection (src/db/prepared.ts). Off for a
   * pooler that cannot follow named statements (PgBouncer before 1.21, or without
   * `max_prepared_statements`): every statement is then sent unnamed.
   */
  preparedStatements?: boolean;
  /** D77: bound on opening a connection and on waiting for a pooled one, in ms; 0 or unset: none. */
  connectTimeoutMs?: number;
  /**
   * D77: bound on the answer to one statement, in ms; past it the connection is closed and the
   * statement fails. 0 or unset: none (operator commands, which may run long statements).
   */
  statementTimeoutMs?: number;
  /** Told every statement the handle's databases run (diagnostics; tests count queries with it). */
  queryLogger?: Logger;
  /**
   * Who opens an embedded DATA_DIR, recorded in its lock so that a second opener is told what
   * holds it and what to do instead (data-dir-lock.ts). Default: an unnamed command.
   */
  owner?: DataDirOwner;
}

/** Connections lent by withDedicatedConnection, whose statements have no time bound. */
const unboundedClients = new WeakSet<pg.Client>();

interface ClientBehaviour {
  /** Drop the names Drizzle and executePrepared give statements (a pooler that cannot follow them). */
  unnamed: boolean;
  statementTimeoutMs: number;
}

/**
 * The node-postgres client every connection uses, with what the driver does not do by itself:
 *
 * - Unnamed statements (DATABASE_PREPARED_STATEMENTS=false): the names are dropped here, in one
 *   place, instead of in every repository.
 * - A bound on each statement (D77). pg's own `query_timeout` answers the caller but leaves the
 *   statement running on the connection, so the ROLLBACK that follows waits behind it for ever
 *   when the database is gone without a word (a network cut). Here the connection itself is
 *   closed: every statement on it fails at once, and the pool discards it. A server-side
 *   `statement_timeout` cannot do this (no answer crosses a cut network), and as a start-up
 *   parameter PgBouncer refuses it.
 */
function clientClass(behaviour: ClientBehaviour): typeof pg.Client {
  return class ParleyClient extends pg.Client {
    override query(...args: unknown[]): never {
      const [config, ...rest] = args;
      let sent = config;
      if (behaviour.unnamed && config !== null && typeof config === 'object' && 'name' in config) {
        const { name: _name, ...unnamed } = config as Record<string, unknown>;
        sent = unnamed;
      }
      const query = super.query as (...a: unknown[]) => never;
      const timeoutMs = unboundedClients.has(this) ? 0 : behaviour.statementTimeoutMs;
      // Submittables (cursors, streams) keep their own pace; nothing in Parley sends one.
      if (!timeoutMs || (sent !== null && typeof sent === 'object' && 'submit' in sent)) {
        return query.call(this, sent, ...rest);
      }
      const timer = setTimeout(() => this.abandon(timeoutMs), timeoutMs);
      timer.unref();
      const done = () => clearTimeout(timer);
      const callback = rest.at(-1);
      if (typeof callback === 'function') {
        // pg-pool's query() passes a callback.
        rest[rest.length - 1] = (...results: unknown[]) => {
          done();
          return callback(...results);
        };
        return query.call(this, sent, ...rest);
      }
      const result = query.call(this, sent, ...rest) as Promise<unknown>;
      result.then(done, done);
      return result as never;
    }

    /** Closes a connection whose statement got no answer in time: everything on it fails with ETIMEDOUT. */
    private abandon(timeoutMs: number): void {
      const error = Object.assign(
        new Error(`The database did not answer within ${timeoutMs} ms; connection closed`),
        { code: 'ETIMEDOUT' },
      );
      (
        this as unknown as { connection: { stream: { destroy(error: Error): void } } }
      ).connection.stream.destroy(error);
    }
  };
}

// BIGINT counts (COUNT(*), identity columns) come back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openPglite(
        options.dataDir,
        options.queryLogger,
        options.owner ?? { kind: 'command', command: '' },
        options.initialDataDir,
      );
}

/**
 * A pool that survives its database going away (D77). A connection that loses its server emits
 * `error`; for an idle one pg-pool listens (and the pool's own error event is ignored here), but a
 * checked-out one has no listener of its own, and an unheard `error` event ends the process. So
 * every connection gets one when the pool makes it: the statement in flight fails by itself, and
 * the pool discards the broken connection when it is released.
 */
function openPool(url: string, options: DatabaseOptions, Client: typeof pg.Client): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    Client,
    // Bounds both the opening of a connection and the wait for a pooled one (pg-pool).
    connectionTimeoutMillis: options.connectTimeoutMs || undefined,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * `transaction` on a pool, with the connection always given back. Drizzle's own takes a
 * connection and sends BEGIN before its try/finally: a BEGIN that fails (the connection died
 * while idle, a statement timed out) never releases the connection, and once the pool's every
 * slot has leaked so, no request is served again. Here the transaction runs on the checked-out
 * connection, and the connection is released whatever happens, and discarded if it broke.
 */
function poolTransaction(pool: pg.Pool, logger: Logger | undefined): Database['transaction'] {
  const onConnection = new WeakMap<pg.PoolClient, Database>();
  return async (transaction, config) => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      let db = onConnection.get(client);
      if (!db) {
        db = drizzlePg(client, { schema, logger }) as unknown as Database;
        onConnection.set(client, db);
      }
      return await db.transaction(transaction, config);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(isTransientConnectionError(failure) ? (failure as Error) : undefined);
    }
  };
}

function drizzleOnPool(pool: pg.Pool, logger: Logger | undefined): Database {
  const db = drizzlePg(pool, { schema, logger }) as unknown as Database;
  return Object.assign(db, { transaction: poolTransaction(pool, logger) });
}

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const Client = clientClass({
    unnamed: options.preparedStatements === false,
    statementTimeoutMs: options.statementTimeoutMs ?? 0,
  });
  const pool = openPool(url, options, Client);
  const replica = options.readDatabaseUrl ? openPool(options.readDatabaseUrl, options, Client) : undefined;
  const logger = options.queryLogger;
  const db = drizzleOnPool(pool, logger);
  return {
    kind: 'postgres',
    db,
    readDb: replica ? drizzleOnPool(replica, logger) : db,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
      await replica?.end();
    },
    listen: (channel, listener) => listenOnOwnConnection(url, Client, channel, listener),
    async withDedicatedConnection(fn) {
      const client = await pool.connect();
      let failure: unknown;
      // Migrations and index builds may wait for a lock or run for minutes: no statement bound.
      unboundedClients.add(client);
      try {
        return await fn(drizzlePg(client, { schema, logger }) as unknown as Database);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        unboundedClients.delete(client);
        client.release(isTransientConnectionError(failure) ? (failure as Error) : undefined);
      }
    },
  };
}

async function openPglite(
  dataDir: string,
  logger: Logger | undefined,
  owner: DataDirOwner,
  initialDataDir: Blob | undefined,
): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  if (initialDataDir && !inMemory) throw new Error('initialDataDir is for a database in memory only');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // Held from before PGlite opens the files until after it has flushed them on close.
  const lock = inMemory ? undefined : lockDataDir(dataDir, owner);
  let client: PGlite;
  try {
    client = await PGlite.create(inMemory ? undefined : dataDir, {
      extensions: { vector },
      loadDataDir: initialDataDir,
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema, logger }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    readDb: db,
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    async close() {
      // PGlite flushes its files on close; never leave it half-written (D48).
      if (!client.closed) await client.close();
      lock?.release();
    },
    withDedicatedConnection: (fn) => fn(db),
    async listen(channel, listener) {
      const unlisten = await client.listen(channel, listener.onNotification);
      listener.onListening();
      return { close: () => (client.closed ? Promise.resolve() : unlisten()) };
    },
  };
}

/** Pause before reconnecting a lost listening connection, doubled up to the maximum. */
const LISTEN_RETRY_MS = { first: 250, max: 5_000 };

/**
 * A client of its own that LISTENs, and connects again (with backoff) whenever the connection is
 * lost, for as long as it is not closed (D77: the database may go away and come back).
 */
async function listenOnOwnConnection(
  url: string,
  Client: typeof pg.Client,
  channel: string,
  listener: ChannelListener,
): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = LISTEN_RETRY_MS.first;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const candidate = new Client({ connectionString: url });
    unboundedClients.add(candidate);
    candidate.on('error', () => {});
    candidate.on('end', () => {
      if (client === candidate) client = undefined;
      if (!closed) retry();
    });
    candidate.on('notification', (message) => listener.onNotification(message.payload ?? ''));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await candidate.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await candidate.end().catch(() => {});
      return;
    }
    client = candidate;
    retryMs = LISTEN_RETRY_MS.first;
    listener.onListening();
  };

  const retry = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch(() => {
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.max);
        retry();
      });
    }, retryMs);
    retryTimer.unref();
  };

  await connect().catch(() => retry());
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => {});
    },
  };
}
