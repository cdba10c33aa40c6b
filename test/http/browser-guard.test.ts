import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { allowedHosts } from '../../src/http/browser-guard.js';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';

// D100: a request from a page on a foreign origin, or naming a foreign Host, is refused with 403
// and the error envelope, on REST and MCP alike; requests without Origin are untouched.

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Origin and Host checks on a loopback server (the default)', () => {
  let ctx: TestContext;
  let project: TestProject;
  beforeAll(async () => {
    ctx = await createTestContext({ CORS_ORIGINS: 'https://app.example.com' });
    project = await createProject(ctx.app);
  });
  afterAll(() => ctx.close());

  it('refuses a REST write from a foreign origin with 403 ORIGIN_NOT_ALLOWED and writes nothing', async () => {
    const as = asProject(ctx.app, project);
    const refused = await as({
      method: 'POST',
      url: '/api/v1/dialogue',
      headers: { origin: 'http://evil.example' },
      payload: { label: 'from a hostile page' },
    });
    expect(expectError(refused, 403, 'ORIGIN_NOT_ALLOWED').type).toBe('authorization_error');
    const list = await as({ method: 'GET', url: '/api/v1/dialogue' });
    expect(list.json().items).toEqual([]);
  });

  it('refuses MCP from a foreign origin with 403 ORIGIN_NOT_ALLOWED', async () => {
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/mcp/v1',
      headers: { ...mcpHeaders, ...project.auth, origin: 'http://evil.example' },
      payload: initialize,
    });
    expectError(refused, 403, 'ORIGIN_NOT_ALLOWED');
  });

  it('answers MCP and REST without an Origin header as before', async () => {
    const mcp = await ctx.app.inject({
      method: 'POST',
      url: '/mcp/v1',
      headers: { ...mcpHeaders, ...project.auth },
      payload: initialize,
    });
    expect(mcp.statusCode).toBe(200);
    const rest = await asProject(ctx.app, project)({ method: 'GET', url: '/api/v1/dialogue' });
    expect(rest.statusCode).toBe(200);
  });

  it("accepts the server's own origin, default port or not, and the origins of CORS_ORIGINS", async () => {
    const as = asProject(ctx.app, project);
    for (const [host, origin] of [
      ['localhost:80', 'http://localhost'],
      ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['localhost:80', 'https://app.example.com'],
    ] as const) {
      const response = await as({ method: 'GET', url: '/api/v1/dialogue', headers: { host, origin } });
      expect(response.statusCode, `${host} ${origin}`).toBe(200);
    }
  });

  it('refuses an origin that differs from its own by scheme or port, and the opaque origin null', async () => {
    const as = asProject(ctx.app, project);
    for (const origin of ['https://localhost', 'http://localhost:8080', 'null']) {
      const response = await as({ method: 'GET', url: '/api/v1/dialogue', headers: { origin } });
      expectError(response, 403, 'ORIGIN_NOT_ALLOWED');
    }
  });

  it('refuses a foreign Host with 403 HOST_NOT_ALLOWED, on MCP, REST and every other path', async () => {
    const mcp = await ctx.app.inject({
      method: 'POST',
      url: '/mcp/v1',
      headers: {
        ...mcpHeaders,
        ...project.auth,
        host: 'evil.example.com',
        origin: 'http://evil.example.com',
      },
      payload: initialize,
    });
    expectError(mcp, 403, 'HOST_NOT_ALLOWED');
    for (const url of ['/api/v1/dialogue', '/healthz', '/console']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { ...project.auth, host: 'rebound.example:3000' },
      });
      expectError(response, 403, 'HOST_NOT_ALLOWED');
    }
  });

  it('accepts the loopback names on any port, and refuses a Host that is not a plain name', async () => {
    const as = asProject(ctx.app, project);
    for (const host of ['localhost:3000', '127.0.0.1:1', '[::1]:3000', 'LOCALHOST']) {
      const response = await as({ method: 'GET', url: '/api/v1/dialogue', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
    for (const host of ['evil@localhost', 'localhost/x']) {
      const response = await as({ method: 'GET', url: '/api/v1/dialogue', headers: { host } });
      expectError(response, 403, 'HOST_NOT_ALLOWED');
    }
  });
});

describe('ALLOWED_HOSTS and CORS_ORIGINS=*', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ ALLOWED_HOSTS: 'parley.example.com,localhost', CORS_ORIGINS: '*' });
  });
  afterAll(() => ctx.close());

  it('names the hosts a server answers to, and refuses the loopback names it does not list', async () => {
    const allowed = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { host: 'parley.example.com:8443' },
    });
    expect(allowed.statusCode).toBe(200);
    const refused = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { host: '127.0.0.1:3000' },
    });
    expectError(refused, 403, 'HOST_NOT_ALLOWED');
  });

  it('lets a page from any origin call the API with CORS_ORIGINS=*', async () => {
    const project = await createProject(ctx.app);
    const response = await asProject(
      ctx.app,
      project,
    )({
      method: 'GET',
      url: '/api/v1/dialogue',
      headers: { host: 'parley.example.com', origin: 'https://anywhere.example' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('allows any host when HOST listens beyond loopback, or with ALLOWED_HOSTS=*', () => {
    expect(allowedHosts(configFrom({ HOST: '0.0.0.0' }))).toBeUndefined();
    expect(allowedHosts(configFrom({ HOST: '::' }))).toBeUndefined();
    expect(allowedHosts(configFrom({ ALLOWED_HOSTS: '*' }))).toBeUndefined();
    expect([...(allowedHosts(configFrom({ HOST: '::1' })) ?? [])]).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
    ]);
  });

  it('is refused at start when an entry is not a host name', () => {
    expect(() => configFrom({ ALLOWED_HOSTS: 'localhost:3000' })).toThrow(/ALLOWED_HOSTS/);
    expect(() => configFrom({ ALLOWED_HOSTS: 'http://example.com' })).toThrow(/ALLOWED_HOSTS/);
    expect(configFrom({ ALLOWED_HOSTS: ' Example.com , [::1]' }).ALLOWED_HOSTS).toEqual([
      'example.com',
      '[::1]',
    ]);
  });
});
