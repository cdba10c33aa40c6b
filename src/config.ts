import { z } from 'zod';
import { parseAllowListEntry } from './lib/allow-list-entry.js';

// The only place that reads process.env. Parsed once at start, frozen, passed in.

/** The shortest ADMIN_TOKEN accepted; the admin API's 404 when it is off names it too. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);

/** Names proxy-addr accepts besides addresses and CIDRs. */
const trustProxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

const visibleAscii = /^[\x21-\x7e]+$/;

/** An origin as a browser sends it: scheme, host and port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** A host name or address as a Host header carries it, without the port: `example.com`, `[::1]`. */
function isHostName(value: string): boolean {
  try {
    const url = new URL(`http://${value}`);
    return url.hostname === value && url.port === '';
  } catch {
    return false;
  }
}

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Loopback unless set: a fresh `npm start` is not reachable from the network (the image sets 0.0.0.0). */
    HOST: z.string().min(1).default('127.0.0.1'),
    /**
     * D60: PEM certificate (chain) and private key files; with both set the server speaks HTTPS on
     * PORT, and re-reads them on SIGHUP. Neither: plain HTTP.
     */
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** Optional read replica used by list, get and search. */
    READ_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_POOL_MAX: positiveInt.default(10),
    /** Keep hot statements prepared per connection; false behind a pooler that cannot (docs/scaling.md). */
    DATABASE_PREPARED_STATEMENTS: booleanFromEnv.default(true),
    /** How long start-up waits for an unreachable Postgres (with backoff) before giving up; 0 = no wait. */
    DATABASE_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
    /**
     * D77: the longest wait for a connection, whether opening a new one or waiting for a pooled one
     * to come free; past it the request gets 503. 0 = no bound.
     */
    DATABASE_CONNECT_TIMEOUT_MS: nonNegativeInt.default(3_000),
    /**
     * D77: the longest wait for the answer to one statement. Past it the connection is closed (a
     * database that went away without a word cannot answer a server-side timeout) and the request
     * gets 503. With the connect timeout, this keeps a request's wait on a lost database under
     * 10 s. 0 = no bound.
     */
    DATABASE_STATEMENT_TIMEOUT_MS: nonNegativeInt.default(5_000),
    DATA_DIR: z.string().min(1).default('./data'),
    ADMIN_TOKEN: z
      .string()
      .min(ADMIN_TOKEN_MIN_LENGTH, `must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters`)
      .optional(),
    // D9: 16-256 visible ASCII characters.
    BOOTSTRAP_API_KEY: z
      .string()
      .min(16)
      .max(256)
      .regex(visibleAscii, 'must be visible ASCII characters only')
      .optional(),
    /**
     * Origins allowed to call the API from a browser page: `*`, or a comma-separated list of
     * origins (`https://app.example.com,http://localhost:5173`). Unset: CORS stays off.
     */
    CORS_ORIGINS: z
      .string()
      .transform((value, ctx) => {
        if (value.trim() === '*') return '*' as const;
        const origins = value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
        const invalid = origins.filter((entry) => !isOrigin(entry));
        if (origins.length === 0 || invalid.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must be * or a comma-separated list of origins such as https://app.example.com (not ${invalid.join(', ') || 'empty'})`,
          });
          return z.NEVER;
        }
        return origins;
      })
      .optional(),
    /**
     * D100: host names (no port) a request's Host header may carry: `*` or a comma-separated list
     * (`parley.example.com,localhost`). Unset: the loopback names when HOST is a loopback address,
     * any host otherwise. Refuses DNS rebinding against a server that only listens locally.
     */
    ALLOWED_HOSTS: z
      .string()
      .transform((value, ctx) => {
        if (value.trim() === '*') return '*' as const;
        const hosts = value
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean);
        const invalid = hosts.filter((entry) => !isHostName(entry));
        if (hosts.length === 0 || invalid.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must be * or a comma-separated list of host names without port, such as parley.example.com (not ${invalid.join(', ') || 'empty'})`,
          });
          return z.NEVER;
        }
        return hosts;
      })
      .optional(),
    /** D102: the web console at /console, served from the built console/dist folder. */
    CONSOLE_ENABLED: booleanFromEnv.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // D13: default 32 MiB.
    BODY_LIMIT_BYTES: positiveInt.default(32 * 1024 * 1024),
    /**
     * Proxies trusted to set X-Forwarded-For (D45): a comma-separated list of addresses/CIDRs
     * (or proxy-addr's names loopback, linklocal, uniquelocal), a hop count, or `true` (= 1 hop).
     */
    TRUST_PROXY: z
      .string()
      .refine(
        (value) =>
          /^(true|false|\d+)$/.test(value) ||
          value
            .split(',')
            .map((entry) => entry.trim())
            .filter(Boolean)
            .every((entry) => trustProxyNames.has(entry) || parseAllowListEntry(entry) !== undefined),
        'must be true, false, a hop count, or a comma-separated list of IP addresses or CIDRs',
      )
      .optional(),
    // D43
    RATE_LIMIT_MAX: positiveInt.default(600),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** Prefix of the rate-limit keys in Redis (several deployments can share one Redis). */
    RATE_LIMIT_REDIS_PREFIX: z.string().min(1).max(128).default('parley:rate-limit:'),
    // D76: authentication failures a client address may cause a minute, past which they get 429
    // before any database work; a valid key or admin token is never held back.
    AUTH_FAILURE_LIMIT: positiveInt.default(30),
    ADMIN_AUTH_FAILURE_LIMIT: positiveInt.default(30),
    /** D76: how long an instance trusts a verified API key without a lookup (revocation bound); 0 never. */
    AUTH_CACHE_TTL_MS: nonNegativeInt.default(5000),
    // Load shedding: past any of these, requests get 503 SERVICE_UNAVAILABLE with Retry-After.
    // 0 turns a check off. The defaults only trip on a process in real trouble.
    /** Mean event-loop delay over one sample interval, in ms; unset: 1000 on PostgreSQL, off on PGlite. */
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: nonNegativeInt.optional(),
    /** V8 heap in use, in bytes; unset: 90% of the V8 heap limit. */
    LOAD_SHED_MAX_HEAP_USED_BYTES: nonNegativeInt.optional(),
    /** Resident set size, in bytes (off by default: container limits vary). */
    LOAD_SHED_MAX_RSS_BYTES: nonNegativeInt.default(0),
    /** Event-loop utilization over one sample interval, 0-1 (off by default). */
    LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
    LOAD_SHED_SAMPLE_INTERVAL_MS: positiveInt.default(1000),
    LOAD_SHED_RETRY_AFTER_SECONDS: positiveInt.default(5),
    // D41: embedding provider.
    EMBEDDINGS: z.enum(['local', 'openai', 'none']).default('local'),
    OPENAI_API_KEY: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.url().optional(),
    EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
    EMBEDDING_DIMENSIONS: positiveInt.max(16000).optional(),
    /** Run the embedding worker inside the server process (`parley worker` runs one on its own). */
    EMBEDDING_WORKER: booleanFromEnv.default(true),
    /**
     * The share of its time the local model keeps for the background embedding of stored objects
     * while no core of the machine is idle (0 < share <= 1); it takes more while some are (D190).
     * Search queries are embedded first, whatever it is. Lower keeps more CPU for requests while a
     * backlog drains on a saturated machine, and drains it more slowly (D126).
     */
    EMBEDDING_BACKGROUND_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
    /**
     * D133: a search scope (project, namespace, dialogue) of at most this many rows gets its
     * semantic candidates by an exact distance scan; a larger one through the HNSW index. The
     * default is the search's own (EXACT_SCAN_MAX_ROWS; a test keeps the two equal).
     */
    SEARCH_EXACT_SCAN_MAX_ROWS: nonNegativeInt.max(1_000_000).default(10_000),
    // D22: a chat model writes summaries when set, the built-in extractive summarizer otherwise.
    SUMMARY_MODEL: z.string().min(1).optional(),
    /** Length budget of a summary, in tokens (o200k_base), for both summarizers. */
    SUMMARY_MAX_TOKENS: positiveInt.min(32).max(32_000).default(512),
    /** Budget of one call to the summary model: prompt plus answer; longer dialogues go in chunks. */
    SUMMARY_CALL_TOKENS: positiveInt.max(2_000_000).default(8192),
    /** Time allowed for one call to the summary model. */
    SUMMARY_TIMEOUT_MS: positiveInt.default(60_000),
    /** Further attempts after a transient failure of the summary model (timeout, 429, 5xx). */
    SUMMARY_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    /**
     * D36, D75: how long a stored idempotent response is replayed, in hours; any positive number
     * (fractions too). Expired ones are deleted in the background.
     */
    IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().max(1_000_000).default(24),
    /** D65: how long events are kept, in days; any positive number (fractions too, for tests). */
    EVENTS_RETENTION_DAYS: z.coerce.number().positive().max(100_000).default(7),
    /** D66: a comment line on every open event stream this often, so that proxies keep it open. */
    EVENTS_HEARTBEAT_MS: positiveInt.default(15_000),
    /**
     * D66: new events an open stream may have waiting for its client (read, not yet written to
     * its socket) before it is closed with the reason `lagging`; its client resumes with
     * Last-Event-ID. Waiting events are shared with the other streams, so a large value costs
     * little memory; a small one drops slow readers sooner.
     */
    EVENTS_STREAM_BACKLOG: positiveInt.max(1_000_000).default(5_000),
    /**
     * D63: how often each instance looks for events whose writer stopped between its commit and
     * numbering them (at most a day). Every other event is numbered, and its streams woken, at once.
     */
    EVENTS_SWEEP_INTERVAL_MS: positiveInt.max(86_400_000).default(5_000),
    /**
     * D192: the pause between two rounds of the embedded store's own vacuum and analyze, which
     * PGlite has no autovacuum to do; 0 turns them off. Unused on PostgreSQL.
     */
    EMBEDDED_VACUUM_INTERVAL_MS: nonNegativeInt.max(86_400_000).default(60_000),
    // --- data lifecycle (D150-D154) ---
    /** D154: the pause between two retention sweeps (expired objects and the projects' policies). */
    RETENTION_SWEEP_INTERVAL_MS: positiveInt.max(86_400_000).default(60_000),
    // --- end data lifecycle ---
    /** D164: dialogues and memories one namespace-erasure transaction deletes at most. */
    ERASURE_BATCH_SIZE: positiveInt.max(10_000).default(50),
    /** D164: how often every instance looks for pending namespace erasures. */
    ERASURE_POLL_MS: positiveInt.max(3_600_000).default(1_000),
    /** D68: run the webhook delivery worker inside the server process (`parley worker` runs one too). */
    WEBHOOK_WORKER: booleanFromEnv.default(true),
    /**
     * D69: lifts the https:// rule and the refusal of loopback, private, link-local and metadata
     * addresses, at registration and at connection time (local development and tests only).
     */
    WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
    /**
     * D69: a PEM file of certificate authorities trusted for webhook receivers besides Node's
     * default roots (receivers behind a company's private CA). Read once at start; a file that
     * cannot be read or holds no certificate stops the start.
     */
    WEBHOOK_CA_FILE: z.string().min(1).optional(),
    /** D68: time allowed for one delivery attempt (connection, request and answer). */
    WEBHOOK_TIMEOUT_MS: positiveInt.max(600_000).default(10_000),
    /**
     * D90: projects whose webhooks one worker delivers to at the same time. A receiver that is slow
     * or hangs holds up its own project only, while the others go on, up to this many at once.
     */
    WEBHOOK_CONCURRENCY: positiveInt.max(1_000).default(16),
    /**
     * D68: the delays before each retry, in milliseconds, comma-separated; each is given +/- 50 %
     * jitter. After the last one fails the delivery is dropped. Default: 5 s, 5 min, 30 min, 2 h,
     * 5 h, 10 h, 14 h, 20 h, 24 h.
     */
    WEBHOOK_RETRY_SCHEDULE_MS: z
      .string()
      .regex(/^\d{1,10}(,\d{1,10}){0,29}$/, 'a comma-separated list of milliseconds')
      .default('5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,86400000')
      .transform((value) => value.split(',').map(Number)),
    /** D68: an endpoint failing for this long without a success is disabled (default 5 days). */
    WEBHOOK_DISABLE_AFTER_MS: positiveInt.default(5 * 86_400_000),
    /** Time allowed for requests in flight and claimed jobs at shutdown. */
    SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
    /**
     * At shutdown, time during which /readyz already answers 503 while requests are still accepted,
     * so that a load balancer stops sending before the listener closes. Part of the grace period.
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(0),
  })
  .superRefine((env, ctx) => {
    for (const [given, missing] of [
      ['TLS_CERT_FILE', 'TLS_KEY_FILE'],
      ['TLS_KEY_FILE', 'TLS_CERT_FILE'],
    ] as const) {
      if (env[given] !== undefined && env[missing] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [missing],
          message: `${given} is set: HTTPS needs ${missing} too (set both, or neither for HTTP)`,
        });
      }
    }
    if (env.EMBEDDINGS === 'openai' && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['OPENAI_API_KEY'],
        message: 'EMBEDDINGS=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a keyless local endpoint)',
      });
    }
    if (env.SUMMARY_MODEL && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SUMMARY_MODEL'],
        message: 'SUMMARY_MODEL needs OPENAI_API_KEY (or OPENAI_BASE_URL for a keyless local endpoint)',
      });
    }
    // Each call must hold the summary so far, the answer, the instructions and some messages.
    const minimumCall = 2 * env.SUMMARY_MAX_TOKENS + 1024;
    if (env.SUMMARY_MODEL && env.SUMMARY_CALL_TOKENS < minimumCall) {
      ctx.addIssue({
        code: 'custom',
        path: ['SUMMARY_CALL_TOKENS'],
        message: `must be at least 2 * SUMMARY_MAX_TOKENS + 1024 (${minimumCall})`,
      });
    }
  });

export type Config = Readonly<z.output<typeof configSchema>>;

/** Every variable Parley reads (`.env.example` lists each one; a test keeps the two equal). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(configSchema.shape);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as most shells and compose files produce them for blank values.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return Object.freeze(result.data);
}

/** A config for tests and tools: defaults plus the given overrides, validated like the real one. */
export function configFrom(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(overrides as NodeJS.ProcessEnv);
}
