import type { LookupAddress } from 'node:dns';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import type { HostLookup } from '../../src/modules/webhooks/url-safety.js';
import {
  type TestContext,
  asProject,
  createProject,
  createTestContext,
  expectError,
} from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { useReceivers } from '../helpers/webhook-receiver.js';

// D67 (the endpoint API and its errors) and D69 (SSRF: https only, no private address, at
// registration and again at connection time). DNS is the test's own: `rebind.example` answers a
// public address first and 127.0.0.1 afterwards, as a rebinding attacker's server would.

const PUBLIC = '93.184.216.34';
const answers: Record<string, string[]> = {
  'public.example': [PUBLIC],
  'internal.example': ['10.0.0.7'],
  'mixed.example': [PUBLIC, '192.168.1.2'],
};
/** Hosts that answer a public address at registration and 127.0.0.1 at every lookup after it. */
const rebinding = new Map<string, number>([
  ['rebind.example', 0],
  ['paging.example', 0],
]);

const lookup = ((hostname: string, options: unknown, callback: unknown) => {
  const cb = (typeof options === 'function' ? options : callback) as (
    error: Error | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void;
  const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
  const lookups = rebinding.get(hostname);
  if (lookups !== undefined) rebinding.set(hostname, lookups + 1);
  const addresses = lookups === undefined ? answers[hostname] : [lookups === 0 ? PUBLIC : '127.0.0.1'];
  if (!addresses) {
    cb(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    return;
  }
  if (all)
    cb(
      null,
      addresses.map((address) => ({ address, family: 4 })),
    );
  else cb(null, addresses[0]!, 4);
}) as unknown as HostLookup;

// The rebinding test's receiver: trusted (WEBHOOK_CA_FILE) for rebind.example too, so that only
// the address check at connection time keeps the request from it.
const receivers = useReceivers({ names: ['rebind.example'] });

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext(
    { WEBHOOK_RETRY_SCHEDULE_MS: '600000', WEBHOOK_CA_FILE: receivers.caFile },
    { webhookLookup: lookup },
  );
});
afterAll(async () => {
  await ctx.close();
});

/** Delivery attempts of the project that have failed, as the worker records them. */
async function failedAttempts(projectId: string): Promise<number> {
  const rows = rowsOf(
    await ctx.app.db.execute(
      sql`SELECT 1 FROM webhook_attempts WHERE project_id = ${projectId} AND status = 'failed'`,
    ),
  );
  return rows.length;
}

describe('webhook endpoints (D67)', () => {
  it('creates, lists, gets, updates and deletes an endpoint; the secret is shown only at creation', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    const created = await as({
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: {
        url: 'https://public.example/hook',
        types: ['message.*'],
        namespace: 'n1',
        description: 'CRM',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as { id: string; secret: string };
    expect(body).toMatchObject({
      url: 'https://public.example/hook',
      types: ['message.*'],
      namespace: 'n1',
      enabled: true,
    });
    expect(body.id).toMatch(/^whk_/);
    expect(Buffer.from(body.secret.replace(/^whsec_/, ''), 'base64').length).toBeGreaterThanOrEqual(24);

    const got = (await as({ method: 'GET', url: `/api/v1/webhooks/${body.id}` })).json();
    expect(got).not.toHaveProperty('secret');
    const list = (await as({ method: 'GET', url: '/api/v1/webhooks' })).json() as { items: { id: string }[] };
    expect(list.items.map((item) => item.id)).toEqual([body.id]);
    expect(JSON.stringify(list)).not.toContain(body.secret);

    const patched = await as({
      method: 'PATCH',
      url: `/api/v1/webhooks/${body.id}`,
      payload: { types: [], namespace: null, enabled: false },
    });
    expect(patched.json()).toMatchObject({
      types: [],
      namespace: null,
      enabled: false,
      disabledReason: null,
    });

    expect((await as({ method: 'DELETE', url: `/api/v1/webhooks/${body.id}` })).json()).toEqual({
      success: true,
      id: body.id,
    });
    expectError(await as({ method: 'GET', url: `/api/v1/webhooks/${body.id}` }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('answers a missing or foreign id with 404 RESOURCE_NOT_FOUND on every route', async () => {
    const owner = asProject(ctx.app, await createProject(ctx.app));
    const other = asProject(ctx.app, await createProject(ctx.app));
    const { id } = (
      await owner({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://public.example/h' } })
    ).json() as { id: string };
    for (const target of [id, 'whk_missing']) {
      for (const [method, suffix, payload] of [
        ['GET', '', undefined],
        ['PATCH', '', { enabled: true }],
        ['DELETE', '', undefined],
        ['POST', '/rotate-secret', undefined],
        ['POST', '/test', undefined],
        ['GET', '/deliveries', undefined],
        ['POST', '/replay', { after: 0 }],
      ] as const) {
        const response = await other({ method, url: `/api/v1/webhooks/${target}${suffix}`, payload });
        expectError(response, 404, 'RESOURCE_NOT_FOUND');
      }
    }
    expect((await owner({ method: 'GET', url: `/api/v1/webhooks/${id}` })).statusCode).toBe(200);
  });

  it('validates bodies: unknown type, unknown field, bad replay cursor', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    expectError(
      await as({
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: 'https://public.example/h', types: ['nope'] },
      }),
      400,
      'INVALID_INPUT',
    );
    expect((await as({ method: 'POST', url: '/api/v1/webhooks', payload: {} })).statusCode).toBe(400);
    expect(
      (
        await as({
          method: 'POST',
          url: '/api/v1/webhooks',
          payload: { url: 'https://public.example/h', secret: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    const { id } = (
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://public.example/h' } })
    ).json() as { id: string };
    expect(
      (await as({ method: 'POST', url: `/api/v1/webhooks/${id}/replay`, payload: { after: -1 } })).statusCode,
    ).toBe(400);
  });

  it('allows 20 endpoints per project, then 409 RESOURCE_CONFLICT', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    for (let i = 0; i < 20; i++) {
      const response = await as({
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: `https://public.example/${i}` },
      });
      expect(response.statusCode).toBe(201);
    }
    expectError(
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://public.example/21' } }),
      409,
      'RESOURCE_CONFLICT',
    );
  });

  it('pages the delivery log with next', async () => {
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    // Each test event is attempted at once and fails (its host turns private at connection time),
    // which logs the failed attempt and, in the same transaction, its retry ten minutes away: once
    // three attempts have failed the log holds six rows and stays so while it is paged. (A
    // reachable-looking host made the log grow between the pages wherever the attempt failed fast.)
    const { id } = (
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://paging.example/h' } })
    ).json() as { id: string };
    for (let i = 0; i < 3; i++) await as({ method: 'POST', url: `/api/v1/webhooks/${id}/test` });
    await eventually(async () => (await failedAttempts(project.projectId)) === 3);
    type Page = { items: { id: string }[]; next: string | null };
    const all = (await as({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` })).json() as Page;
    expect(all.items).toHaveLength(6);
    const first = (
      await as({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=4` })
    ).json() as Page;
    expect(first.items).toHaveLength(4);
    const second = (
      await as({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=4&next=${first.next}` })
    ).json() as Page;
    expect(second.items).toHaveLength(2);
    expect(second.next).toBeNull();
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(
      all.items.map((item) => item.id),
    );
  });
});

describe('webhook URL safety (D69)', () => {
  it('refuses http://, private and metadata addresses, and names that resolve to one, with 400 INVALID_PARAMETER', async () => {
    const as = asProject(ctx.app, await createProject(ctx.app));
    for (const url of [
      'http://public.example/hook',
      'https://127.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://10.1.2.3/hook',
      'https://internal.example/hook',
      'https://mixed.example/hook',
      'https://unknown.example/hook',
      'ftp://public.example/',
    ]) {
      const error = expectError(
        await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url } }),
        400,
        'INVALID_PARAMETER',
      );
      expect(error.details?.[0]?.field, url).toBe('url');
    }
    const { id } = (
      await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://public.example/hook' } })
    ).json() as { id: string };
    expectError(
      await as({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, payload: { url: 'https://127.0.0.1/x' } }),
      400,
      'INVALID_PARAMETER',
    );
  });

  it('checks the address again at connection time: a name rebound to 127.0.0.1 is not reached', async () => {
    const receiver = await receivers.start();
    const project = await createProject(ctx.app);
    const as = asProject(ctx.app, project);
    // Registration sees the public answer; every later resolution answers 127.0.0.1, where a
    // receiver listens (reached, it would record the request).
    const created = await as({
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: `https://rebind.example:${receiver.port}/hook` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
    await eventually(async () => (await failedAttempts(project.projectId)) > 0);
    const log = (await as({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` })).json() as {
      items: { status: string; error: string | null; responseStatus: number | null }[];
    };
    const failed = log.items.find((item) => item.status === 'failed')!;
    expect(failed.responseStatus).toBeNull();
    expect(failed.error).toMatch(/private IP address/);
    expect(receiver.received).toHaveLength(0);
    await receiver.close();
  });
});
