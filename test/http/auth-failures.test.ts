import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { createKeyDirectory } from '../../src/modules/projects/key-directory.js';
import { createProjectService } from '../../src/modules/projects/service.js';
import { ADMIN_TOKEN, createProject, expectError } from '../helpers/app.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

// D76: authentication failures are limited per client address; past the limit they get 429
// before any database work, while a valid key (or admin token) is never held back, from any
// address. Every statement the apps run for requests is recorded, so that "no database work" is
// measured. The apps' background work (the event numbering sweep every EVENTS_SWEEP_INTERVAL_MS,
// event and idempotency pruning, webhook rounds) runs on its own timers and may fall inside any
// window of a slow run; no request measured here touches its tables, so its statements are not
// counted.

const LIST = '/api/v1/dialogue';
const inventedKey = () => `prly_${randomBytes(32).toString('base64url')}`;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The namespace-erasure worker polls every second by default and the retention sweeper every
// minute, on tables that requests read too (a read leaves out erasing namespaces; the sweeper reads
// projects' settings): here their first rounds run at start and the next ones after the test.
const baseEnv = {
  ADMIN_TOKEN,
  EMBEDDINGS: 'none',
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  ERASURE_POLL_MS: '3600000',
  RETENTION_SWEEP_INTERVAL_MS: '86400000',
};

function expectFailureLimit(response: LightMyRequestResponse) {
  const error = expectError(response, 429, 'RATE_LIMIT_EXCEEDED');
  expect(error.type).toBe('rate_limit_exceeded');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

function mcp(app: FastifyInstance, remoteAddress: string, headers: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/mcp/v1',
    remoteAddress,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    payload: initialize,
  });
}

/** Sends `count` requests, `concurrency` at a time, and returns their statuses. */
async function flood(count: number, send: () => Promise<LightMyRequestResponse>, concurrency = 250) {
  const responses: LightMyRequestResponse[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - sent) }, send);
    responses.push(...(await Promise.all(batch)));
  }
  return responses;
}

const BACKGROUND_STATEMENT =
  /\b(events|event_sequences|idempotency_keys|webhook_deliveries|webhook_attempts)\b/;

let database: TestDatabase;
const queries: string[] = [];
/** A project service of another process on the same database (the CLI, another instance). */
let elsewhere: ReturnType<typeof createProjectService>;
let app: FastifyInstance;
/** A key created before the app started. */
let keyBeforeStart: string;

beforeAll(async () => {
  database = await createTestDatabase({
    queryLogger: {
      logQuery: (query) => {
        if (!BACKGROUND_STATEMENT.test(query)) queries.push(query);
      },
    },
  });
  elsewhere = createProjectService({ db: database.handle.db });
  keyBeforeStart = (await elsewhere.createProject('made-before-start')).apiKey;
  app = await buildApp({
    config: configFrom({ ...baseEnv, ADMIN_AUTH_FAILURE_LIMIT: '5' }),
    database: database.handle,
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('authentication failures (D76)', () => {
  it('answers a flood of 10,000 invented keys from one address with 429 past the limit, at no database cost, while valid keys keep working from any address', async () => {
    const flooder = '203.0.113.7';
    const list = (headers: Record<string, string>, remoteAddress = flooder) =>
      app.inject({ method: 'GET', url: LIST, headers, remoteAddress } satisfies InjectOptions);
    const madeHere = await createProject(app);
    // Created by another process after this instance started: it has never seen this key.
    const madeElsewhere = (await elsewhere.createProject('made-after-start')).apiKey;

    // The whole flood arrives 250 requests at a time: a burst must not slip lookups past the
    // limit before its first failures are counted.
    const beforeFlood = queries.length;
    const responses = await flood(10_000, () => list(bearer(inventedKey())));
    const unauthorized = responses.filter((response) => response.statusCode === 401);
    expect(unauthorized).toHaveLength(30);
    for (const response of unauthorized) expectError(response, 401, 'UNAUTHORIZED');
    for (const response of responses.filter((response) => response.statusCode !== 401))
      expectFailureLimit(response);
    // The database saw one lookup per failure within the limit, and one read of the active keys
    // when the 30th failure spent the budget (so that keys made elsewhere are known before any
    // is refused); nothing for the 9,970 refused past it.
    expect(queries.length - beforeFlood).toBe(31);

    const atLimit = queries.length;
    // A missing or malformed header past the limit is refused alike.
    expectFailureLimit(await list({}));
    expectFailureLimit(await list({ authorization: 'Basic abc' }));
    expect(queries.length).toBe(atLimit);

    // Valid keys are not held back, from the flooding address either: one made on this
    // instance, one made elsewhere after it started, one that existed before it started.
    for (const key of [madeHere.apiKey, madeElsewhere, keyBeforeStart]) {
      const response = await list(bearer(key));
      expect(response.statusCode, key.slice(0, 9)).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('600');
    }
    // Another address keeps its own budget, and its valid key works.
    expect((await list(madeHere.auth, '198.51.100.1')).statusCode).toBe(200);
    expectError(await list(bearer(inventedKey()), '198.51.100.1'), 401, 'UNAUTHORIZED');
  });

  it('counts IPv6 callers by /64', async () => {
    for (let i = 0; i < 30; i++) {
      const address = `2001:db8:1:2::${(i + 1).toString(16)}`;
      expectError(
        await app.inject({ method: 'GET', url: LIST, remoteAddress: address }),
        401,
        'UNAUTHORIZED',
      );
    }
    expectFailureLimit(await app.inject({ method: 'GET', url: LIST, remoteAddress: '2001:db8:1:2::ffff' }));
    const otherNetwork = await app.inject({ method: 'GET', url: LIST, remoteAddress: '2001:db8:1:3::1' });
    expectError(otherNetwork, 401, 'UNAUTHORIZED');
  });

  it('limits the MCP endpoint alike, with one budget per address for REST and MCP', async () => {
    const project = await createProject(app);
    const address = '198.51.100.23';
    const failures: Record<string, string>[] = [{}, { authorization: 'Bearer' }, bearer('prly_unknown')];
    for (let i = 0; i < 15; i++) {
      expectError(await mcp(app, address, failures[i % 3]!), 401, 'UNAUTHORIZED');
      const rest = await app.inject({
        method: 'GET',
        url: LIST,
        remoteAddress: address,
        headers: bearer(inventedKey()),
      });
      expectError(rest, 401, 'UNAUTHORIZED');
    }
    const atLimit = queries.length;
    for (const response of await flood(300, () => mcp(app, address, bearer(inventedKey()))))
      expectFailureLimit(response);
    expect(queries.length).toBe(atLimit);

    const valid = await mcp(app, address, project.auth);
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: expect.any(String) } },
    });
  });

  it('limits wrong admin tokens on their own budget and never holds back the right one', async () => {
    const address = '192.0.2.50';
    const admin = (authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/admin/v1/projects',
        remoteAddress: address,
        headers: authorization ? { authorization } : {},
      });
    // ADMIN_AUTH_FAILURE_LIMIT=5 in this app.
    for (const authorization of [
      'Bearer wrong-token-0000000000',
      undefined,
      'Bearer',
      'Basic x',
      `Bearer ${ADMIN_TOKEN}x`,
    ]) {
      expectError(await admin(authorization), 401, 'UNAUTHORIZED');
    }
    for (let i = 0; i < 50; i++) expectFailureLimit(await admin('Bearer wrong-token-0000000000'));
    expect((await admin(`Bearer ${ADMIN_TOKEN}`)).statusCode).toBe(200);
    // The API-key budget of the address is untouched by admin failures, and the reverse: the
    // flooding address of the first test still has its admin budget.
    expectError(
      await app.inject({ method: 'GET', url: LIST, remoteAddress: address, headers: bearer(inventedKey()) }),
      401,
      'UNAUTHORIZED',
    );
    const fromFlooder = await app.inject({
      method: 'GET',
      url: '/admin/v1/projects',
      remoteAddress: '203.0.113.7',
      headers: { authorization: 'Bearer wrong-token-0000000000' },
    });
    expectError(fromFlooder, 401, 'UNAUTHORIZED');
  });

  it('costs a valid key no more queries than before the key cache: one for authentication', async () => {
    const project = await createProject(app);
    // One list of dialogues is one query; authentication adds one, cached key or not. D83: the
    // key's first use also records its lastUsed, once; later uses within the minute do not.
    for (let i = 0; i < 3; i++) {
      const before = queries.length;
      expect((await app.inject({ method: 'GET', url: LIST, headers: project.auth })).statusCode).toBe(200);
      const run = queries.slice(before);
      if (i === 0) {
        expect(run).toHaveLength(3);
        expect(run[1]).toMatch(/^update "api_keys" set "last_used"/);
      } else {
        expect(run).toHaveLength(2);
      }
      // Served from the key cache: the project's settings are read (never cached), not the key.
      expect(run[0]).toMatch(/^select "settings" from "projects"/);
    }
  });
});

describe('revocation and settings on two instances (D76)', () => {
  const TTL = 1500;
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    const config = configFrom({ ...baseEnv, AUTH_CACHE_TTL_MS: String(TTL) });
    first = await buildApp({ config, database: database.handle });
    second = await buildApp({ config, database: database.handle });
    await Promise.all([first.ready(), second.ready()]);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  const use = (instance: FastifyInstance, auth: Record<string, string>) =>
    instance.inject({ method: 'GET', url: LIST, headers: auth });

  it('refuses a revoked key at once where it was revoked and within AUTH_CACHE_TTL_MS elsewhere', async () => {
    const project = await createProject(first);
    const key = (
      await first.inject({
        method: 'POST',
        url: `/admin/v1/projects/${project.projectId}/keys`,
        headers: bearer(ADMIN_TOKEN),
      })
    ).json() as { id: string; apiKey: string };
    expect((await use(first, bearer(key.apiKey))).statusCode).toBe(200);
    // The second instance verifies the key, and may trust it for up to TTL ms from then.
    expect((await use(second, bearer(key.apiKey))).statusCode).toBe(200);

    const revoked = await first.inject({
      method: 'DELETE',
      url: `/admin/v1/projects/${project.projectId}/keys/${key.id}`,
      headers: bearer(ADMIN_TOKEN),
    });
    expect(revoked.statusCode).toBe(200);
    const answeredAt = Date.now();
    expectError(await use(first, bearer(key.apiKey)), 401, 'UNAUTHORIZED');

    const wait = answeredAt + TTL - Date.now();
    if (wait > 0) await sleep(wait);
    expectError(await use(second, bearer(key.apiKey)), 401, 'UNAUTHORIZED');
    expectError(await use(first, bearer(key.apiKey)), 401, 'UNAUTHORIZED');
    // The project's other key is untouched.
    expect((await use(second, project.auth)).statusCode).toBe(200);
  });

  it('applies a settings change on every instance at once, cached key or not', async () => {
    const project = await createProject(first);
    expect((await use(second, project.auth)).statusCode).toBe(200);
    const patched = await first.inject({
      method: 'PATCH',
      url: `/admin/v1/projects/${project.projectId}`,
      headers: bearer(ADMIN_TOKEN),
      payload: { settings: { ipAllowList: ['10.9.9.9/32'] } },
    });
    expect(patched.statusCode).toBe(200);
    expectError(await use(second, project.auth), 403, 'IP_NOT_ALLOWED');
    expectError(await use(first, project.auth), 403, 'IP_NOT_ALLOWED');
  });
});

describe('the key directory (D76)', () => {
  function directory(trustMs: number) {
    let clock = 1_000_000;
    const keys = createKeyDirectory({ trustMs, reloadIntervalMs: 60_000, now: () => clock });
    return { keys, advance: (ms: number) => (clock += ms) };
  }
  const owner = { projectId: 'prj_1', keyId: 'key_1' };

  it('trusts a verified key for trustMs from when its lookup began, and never with 0', () => {
    const { keys, advance } = directory(5000);
    const mark = keys.mark();
    advance(1000);
    keys.verified('h', owner, mark);
    advance(3999);
    expect(keys.trusted(keys.get('h')!)).toBe(true);
    advance(1);
    expect(keys.trusted(keys.get('h')!)).toBe(false);
    const never = directory(0).keys;
    never.verified('h', owner);
    expect(never.trusted(never.get('h')!)).toBe(false);
  });

  it('does not keep a verification that began before a revocation on this instance', () => {
    const { keys } = directory(5000);
    keys.verified('h', owner);
    const mark = keys.mark();
    keys.revoked('h');
    keys.verified('h', owner, mark);
    expect(keys.get('h')).toBeUndefined();
  });

  it('reloads at most once per interval when throttled, sharing one load between concurrent calls', async () => {
    const { keys, advance } = directory(5000);
    let loads = 0;
    const load = async () => {
      loads++;
      await sleep(5);
      return [{ keyHash: 'a', ...owner }];
    };
    await Promise.all([keys.reload(load), keys.reload(load), keys.reload(load, { throttled: false })]);
    expect(loads).toBe(1);
    await keys.reload(load);
    expect(loads).toBe(1);
    await keys.reload(load, { throttled: false });
    expect(loads).toBe(2);
    advance(60_000);
    await keys.reload(load);
    expect(loads).toBe(3);
    expect(keys.get('a')).toMatchObject({ ...owner, verifiedAt: 0 });
  });

  it('drops keys the reload no longer finds active, but not those verified since it began', async () => {
    const { keys, advance } = directory(5000);
    keys.verified('revoked-elsewhere', owner);
    advance(10);
    await keys.reload(async () => {
      keys.verified('created-meanwhile', { projectId: 'prj_2', keyId: 'key_2' });
      return [];
    });
    expect(keys.get('revoked-elsewhere')).toBeUndefined();
    expect(keys.get('created-meanwhile')).toBeDefined();
  });
});

// Needs a Redis server (127.0.0.1:6379 here, TEST_REDIS_URL elsewhere); skipped where none runs.
describe.runIf(await redisReachable())('authentication failures shared through Redis (D76)', () => {
  const prefix = `parley-test:authflood:${process.pid}:${Date.now().toString(36)}:`;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let redis: Redis;
  beforeAll(async () => {
    const config = configFrom({
      ...baseEnv,
      REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: prefix,
      AUTH_FAILURE_LIMIT: '4',
    });
    first = await buildApp({ config, database: database.handle });
    second = await buildApp({ config, database: database.handle });
    await Promise.all([first.ready(), second.ready()]);
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await first?.close();
    await second?.close();
  });

  it('shares one failure count between two instances', async () => {
    const project = await createProject(first);
    const address = '203.0.113.99';
    const list = (instance: FastifyInstance, key: string) =>
      instance.inject({ method: 'GET', url: LIST, remoteAddress: address, headers: bearer(key) });
    for (let i = 0; i < 4; i++)
      expectError(await list(i % 2 === 0 ? first : second, inventedKey()), 401, 'UNAUTHORIZED');
    expect(await redis.get(`${prefix}auth-failures:${address}`)).toBe('4');

    const atLimit = queries.length;
    for (let i = 0; i < 20; i++) expectFailureLimit(await list(i % 2 === 0 ? second : first, inventedKey()));
    expect(queries.length).toBe(atLimit);
    // The second instance never used this key: it learned it when the failure it counted spent
    // the budget (it reads the active keys then).
    expect((await list(second, project.apiKey)).statusCode).toBe(200);
    expect((await list(first, project.apiKey)).statusCode).toBe(200);
  });
});
