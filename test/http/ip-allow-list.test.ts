import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError, configFrom } from '../../src/config.js';
import { isAddressAllowed } from '../../src/http/ip-allow-list.js';
import { parseAllowListEntry } from '../../src/lib/allow-list-entry.js';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

const LIST = '/api/v1/dialogue';
const allowList = ['10.1.0.0/16', '2001:db8::/32', '192.0.2.7', '::1'];

describe('allow-list entries', () => {
  it('accepts IPv4 and IPv6 addresses and CIDRs, and nothing else', () => {
    for (const entry of [
      '1.2.3.4',
      '10.0.0.0/8',
      '0.0.0.0/0',
      '::1',
      '2001:db8::/32',
      '::/0',
      '::ffff:1.2.3.4',
    ]) {
      expect(parseAllowListEntry(entry), entry).toBeDefined();
    }
    for (const entry of [
      '',
      'localhost',
      '1.2.3',
      '1.2.3.4/33',
      '1.2.3.4/',
      '/8',
      '::1/129',
      '1.2.3.4/-1',
      '1.2.3.4/8/8',
      '10.0.0.0/ 8',
      '1.2.3.4 ',
    ]) {
      expect(parseAllowListEntry(entry), entry).toBeUndefined();
    }
  });

  it('matches addresses inside the CIDRs, IPv4-mapped IPv6 callers included', () => {
    expect(isAddressAllowed(allowList, '10.1.255.1')).toBe(true);
    expect(isAddressAllowed(allowList, '::ffff:10.1.2.3')).toBe(true);
    expect(isAddressAllowed(allowList, '2001:db8:1::5')).toBe(true);
    expect(isAddressAllowed(allowList, '10.2.0.1')).toBe(false);
    expect(isAddressAllowed(allowList, '2001:db9::1')).toBe(false);
    expect(isAddressAllowed(allowList, 'not-an-address')).toBe(false);
    expect(isAddressAllowed([], '6.6.6.6')).toBe(true);
    expect(isAddressAllowed(undefined, '6.6.6.6')).toBe(true);
  });

  it('refuses a TRUST_PROXY that is neither a flag, a hop count nor a list of addresses', () => {
    expect(() => configFrom({ TRUST_PROXY: 'proxy.example' })).toThrow(ConfigError);
    expect(() => configFrom({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8, loopback' })).not.toThrow();
  });
});

describe('IP allow-list (D45)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({});
  });
  afterAll(() => ctx.close());

  const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({
    method: 'GET' as const,
    url: LIST,
    remoteAddress,
    headers,
  });

  it('answers 403 IP_NOT_ALLOWED to an address outside the list, and serves addresses inside it', async () => {
    const call = asProject(ctx.app, await createProject(ctx.app, { ipAllowList: allowList }));
    for (const address of ['10.1.2.3', '192.0.2.7', '2001:db8::42', '::1', '::ffff:10.1.0.9']) {
      expect((await call(from(address))).statusCode, address).toBe(200);
    }
    for (const address of ['10.2.0.1', '192.0.2.8', '2001:db9::1', '127.0.0.1']) {
      const error = expectError(await call(from(address)), 403, 'IP_NOT_ALLOWED');
      expect(error.type).toBe('authorization_error');
    }
    // Writes are refused before they reach the database.
    expectError(await call({ ...from('10.2.0.1'), method: 'POST', payload: {} }), 403, 'IP_NOT_ALLOWED');
  });

  it('lets every address in when the list is empty or absent', async () => {
    for (const settings of [{}, { ipAllowList: [] }]) {
      const call = asProject(ctx.app, await createProject(ctx.app, settings));
      expect((await call(from('203.0.113.9'))).statusCode).toBe(200);
    }
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const call = asProject(ctx.app, await createProject(ctx.app, { ipAllowList: allowList }));
    expectError(await call(from('6.6.6.6', { 'x-forwarded-for': '10.1.2.3' })), 403, 'IP_NOT_ALLOWED');
  });

  it('does not count refused requests against the rate limit', async () => {
    const call = asProject(
      ctx.app,
      await createProject(ctx.app, { ipAllowList: allowList, rateLimit: { max: 1, windowSeconds: 60 } }),
    );
    expectError(await call(from('6.6.6.6')), 403, 'IP_NOT_ALLOWED');
    expectError(await call(from('6.6.6.6')), 403, 'IP_NOT_ALLOWED');
    expect((await call(from('10.1.0.1'))).statusCode).toBe(200);
  });

  it('refuses a bad entry when the admin API stores it (400 INVALID_INPUT)', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/projects',
      headers: admin,
      payload: { name: 'bad-list', settings: { ipAllowList: ['10.0.0.0/8', '10.0.0.0/33'] } },
    });
    const error = expectError(created, 400, 'INVALID_INPUT');
    expect(error.details).toEqual([
      expect.objectContaining({ field: 'settings.ipAllowList[1]', code: 'INVALID_INPUT' }),
    ]);

    const project = await createProject(ctx.app);
    for (const entry of ['example.com', '1.2.3.4/', '::1/200', '']) {
      const patched = await ctx.app.inject({
        method: 'PATCH',
        url: `/admin/v1/projects/${project.projectId}`,
        headers: admin,
        payload: { settings: { ipAllowList: [entry] } },
      });
      expectError(patched, 400, 'INVALID_INPUT');
    }
    const stored = await ctx.app.inject({
      method: 'GET',
      url: `/admin/v1/projects/${project.projectId}`,
      headers: admin,
    });
    expect((stored.json() as { settings: object }).settings).toEqual({});
  });
});

describe('caller address behind proxies (TRUST_PROXY, D45)', () => {
  let ctx: TestContext;
  let project: TestProject;
  // Instances that differ only in TRUST_PROXY, all on one database.
  const apps = new Map<string, FastifyInstance>();
  beforeAll(async () => {
    ctx = await createTestContext({});
    project = await createProject(ctx.app, { ipAllowList: ['10.1.0.0/16'] });
  });
  afterAll(async () => {
    for (const app of apps.values()) await app.close();
    await ctx.close();
  });

  async function statusFrom(trustProxy: string, remoteAddress: string, forwardedFor: string) {
    let app = apps.get(trustProxy);
    if (!app) {
      const config = configFrom({ ADMIN_TOKEN, EMBEDDINGS: 'none', TRUST_PROXY: trustProxy });
      app = await buildApp({ config, database: ctx.database.handle });
      await app.ready();
      apps.set(trustProxy, app);
    }
    const headers = { 'x-forwarded-for': forwardedFor };
    const response = await asProject(app, project)({ method: 'GET', url: LIST, remoteAddress, headers });
    return response.statusCode;
  }

  it('takes the right-most address that is not a trusted proxy, never a client-chosen left-most one', async () => {
    // The client wrote 10.1.9.9 itself; the proxy 10.0.0.1 appended the address it saw.
    expect(await statusFrom('10.0.0.1', '10.0.0.1', '10.1.9.9, 6.6.6.6')).toBe(403);
    expect(await statusFrom('10.0.0.1, 10.0.0.2', '10.0.0.1', '6.6.6.6, 10.1.2.3, 10.0.0.2')).toBe(200);
    expect(await statusFrom('10.0.0.0/24', '10.0.0.1', '6.6.6.6, 10.1.2.3')).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    expect(await statusFrom('10.0.0.1', '10.1.2.3', '6.6.6.6')).toBe(200);
  });

  it('reads a hop count, and `true` as one hop, from the right', async () => {
    expect(await statusFrom('true', '127.0.0.1', '10.1.9.9, 6.6.6.6')).toBe(403);
    expect(await statusFrom('true', '127.0.0.1', '6.6.6.6, 10.1.2.3')).toBe(200);
    expect(await statusFrom('2', '127.0.0.1', '6.6.6.6, 10.1.2.3, 127.0.0.2')).toBe(200);
  });
});
