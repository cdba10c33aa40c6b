import { DrizzleQueryError } from 'drizzle-orm';
import { AppError } from '../core/errors.js';

// Postgres error codes, in one place. Drizzle wraps the driver's error (DrizzleQueryError keeps it
// as `cause`); these read through the wrapper. Repositories translate the codes their rules know
// into domain errors (a foreign key naming the project, a duplicate id); whatever reaches the error
// handler untranslated is rendered by `toClientDatabaseError`, never as raw SQL.

const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
/** Raised by parley_abort_unless (migration 0017): a standalone write found it could not write (D174). */
const STANDALONE_REFUSED = 'PW001';

/** Text or values the client sent that Postgres cannot hold (NUL bytes, bad encodings, too long). */
const CLIENT_CAUSED = new Set(['22021', '22P05', '22P02', '54000', '22001']);
/** Failures a retry of the same request may not meet: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
/** A statement cancelled (statement_timeout set on the role, pg_cancel_backend): the database is too slow now. */
const PG_QUERY_CANCELED = '57014';

/** Seconds a client is asked to wait before retrying when the database is away (D77). */
const DATABASE_RETRY_AFTER_SECONDS = 2;

interface PgErrorInfo {
  code: string;
  constraint?: string;
}

/**
 * The constraint a message names. A Citus coordinator passes a worker's error on without its
 * constraint field; the (English) message still names it.
 */
function constraintInMessage(error: unknown): string | undefined {
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? /constraint "([^"]+)"/.exec(message)?.[1] : undefined;
}

function pgError(error: unknown): PgErrorInfo | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint:
          typeof candidate.constraint === 'string' ? candidate.constraint : constraintInMessage(current),
      };
    }
    current = candidate.cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown): boolean => pgError(error)?.code === PG_UNIQUE_VIOLATION;

/** A standalone write's statement aborted itself: it changed nothing (D174). */
export const isStandaloneRefusal = (error: unknown): boolean => pgError(error)?.code === STANDALONE_REFUSED;

/**
 * Whether Postgres named `constraint`: on Citus a worker reports the constraint of the shard,
 * the name followed by `_` and the shard id (dialogues_project_id_projects_id_fk_102029).
 */
const namesConstraint = (reported: string | undefined, constraint: string): boolean =>
  reported === constraint ||
  (reported?.startsWith(`${constraint}_`) === true && /^\d+$/.test(reported.slice(constraint.length + 1)));

/** A foreign key violation of the named constraint (the row it points at is gone). */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const info = pgError(error);
  return info?.code === PG_FOREIGN_KEY_VIOLATION && namesConstraint(info.constraint, constraint);
}

/**
 * D77: the database went away (restart, failover, network cut, every connection busy past the
 * connect timeout) or answers too slowly. The request may or may not have been applied when the
 * connection broke during its COMMIT, hence the hint about the Idempotency-Key.
 */
const databaseUnavailable = (): AppError =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The database is not reachable right now; retry after the delay in Retry-After ' +
      '(a write retried with the same Idempotency-Key is applied at most once)',
    undefined,
    DATABASE_RETRY_AFTER_SECONDS,
  );

/** The client's view of a database error no repository translated; undefined for other errors. */
export function toClientDatabaseError(error: unknown): AppError | undefined {
  if (isTransientConnectionError(error)) return databaseUnavailable();
  const info = pgError(error);
  if (!info) return undefined;
  if (info.code === PG_QUERY_CANCELED) return databaseUnavailable();
  if (CLIENT_CAUSED.has(info.code)) {
    return new AppError(
      'INVALID_INPUT',
      'The request contains text or values the database cannot store (for example NUL characters)',
    );
  }
  if (RETRYABLE.has(info.code)) {
    return new AppError(
      'TRANSACTION_FAILED',
      'The transaction could not complete; retry the request',
      undefined,
      1,
    );
  }
  return new AppError('DATABASE_ERROR', 'The database operation failed', undefined, 1);
}

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that is not there (yet, or any more): connection exceptions (class 08),
 * terminated by an administrator or shutting down, a crash of another backend, starting up
 * (57P01-57P03), a database not created yet (3D000), too many connections (53300).
 */
const TRANSIENT_PG_CODE = /^(08...|57P0[1-3]|3D000|53300)$/;

/**
 * What node-postgres says when a connection is lost or cannot be had: the socket closed
 * ("Connection terminated unexpectedly", "... due to connection timeout"), a statement sent on a
 * connection that already broke ("... is not queryable"), no pooled connection within
 * connectionTimeoutMillis ("timeout exceeded when trying to connect"), its query_timeout.
 */
const DRIVER_CONNECTION_MESSAGE =
  /Connection terminated|timeout expired|timeout exceeded when trying to connect|is not queryable|Query read timeout/i;

/**
 * True when the database may become reachable by waiting: what start-up retries (D47), and what
 * a request answers with 503 (D77).
 */
export function isTransientConnectionError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof candidate.code === 'string') {
      if (TRANSIENT_NETWORK_CODES.has(candidate.code) || TRANSIENT_PG_CODE.test(candidate.code)) return true;
      // The server answered with another error; its message may quote the client's text.
      if (/^[0-9A-Z]{5}$/.test(candidate.code)) return false;
    }
    // net's AggregateError (one error per address tried) and pg's "terminated unexpectedly".
    if (Array.isArray(candidate.errors) && candidate.errors.some(isTransientConnectionError)) return true;
    // Drizzle's wrapper quotes the statement and its parameters: only its cause speaks.
    if (
      !(candidate instanceof DrizzleQueryError) &&
      typeof candidate.message === 'string' &&
      DRIVER_CONNECTION_MESSAGE.test(candidate.message)
    ) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}

/** SQLSTATE invalid_catalog_name: the database named in the connection string does not exist. */
const PG_DATABASE_MISSING = '3D000';

/**
 * The database DATABASE_URL names does not exist on its server. Waiting does not create it (an
 * orchestrator that does so runs before Parley), so start-up and the CLI stop at once and say how.
 */
export class DatabaseMissingError extends Error {
  constructor(
    readonly database: string,
    databaseUrl: string,
  ) {
    super(missingDatabaseMessage(database, databaseUrl));
    this.name = 'DatabaseMissingError';
  }
}

/** A word as a shell argument: left bare when safe, single-quoted otherwise. */
const shellWord = (word: string): string =>
  /^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

function missingDatabaseMessage(database: string, databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || '5432';
  const user = decodeURIComponent(url.username);
  const connection = [
    ...(host ? ['-h', shellWord(host)] : []),
    '-p',
    port,
    ...(user ? ['-U', shellWord(user)] : []),
  ].join(' ');
  return (
    `the database "${database}" does not exist on ${host || 'the server'}:${port}. Create it, then start again:\n` +
    `  createdb ${connection} ${shellWord(database)}\n` +
    `or in SQL (psql ${connection} -d postgres):\n` +
    `  CREATE DATABASE "${database.replaceAll('"', '""')}";`
  );
}

/** `error` as a DatabaseMissingError when Postgres answered 3D000, else undefined. */
export function asDatabaseMissing(
  error: unknown,
  databaseUrl: string | undefined,
): DatabaseMissingError | undefined {
  if (databaseUrl === undefined || pgError(error)?.code !== PG_DATABASE_MISSING) return undefined;
  const named = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const reported = /database "(.+)" does not exist/.exec((error as Error).message ?? '')?.[1];
  return new DatabaseMissingError(named || reported || '', databaseUrl);
}
