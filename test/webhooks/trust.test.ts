import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, ConfigError } from '../../src/config.js';
import { readWebhookCaFile, withDefaultRoots } from '../../src/modules/webhooks/trusted-ca.js';
import { asProject, createProject, createTestContext } from '../helpers/app.js';
import { SPAWNING_TEST_TIMEOUT_MS, runNode } from '../helpers/processes.js';
import { eventually } from '../helpers/eventually.js';
import { useReceivers } from '../helpers/webhook-receiver.js';

/**
 * The attempt's error: Node's message, which Node 24 follows with a hint about system
 * certificates that Node 20 does not give, and the code, which is the same on both.
 */
const SELF_SIGNED = /^self-signed certificate\b.*\(DEPTH_ZERO_SELF_SIGNED_CERT\)$/;

// D69: the sender verifies every receiver's certificate. One that no trusted authority signed is a
// failed attempt naming the problem, retried like any other; WEBHOOK_CA_FILE adds a company's
// authorities (here: the receivers' self-signed certificate) to Node's default roots.

const trusted = useReceivers();
const strangers = useReceivers();
const dir = mkdtempSync(join(tmpdir(), 'parley-webhook-ca-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LogItem {
  eventId: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  error: string | null;
}

async function deliveryLog(as: ReturnType<typeof asProject>, id: string): Promise<LogItem[]> {
  const response = await as({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` });
  return (response.json() as { items: LogItem[] }).items;
}

describe('receiver certificates (D69, WEBHOOK_CA_FILE)', () => {
  it('fails and retries an attempt to a receiver whose certificate no trusted authority signed; with WEBHOOK_CA_FILE the same event is delivered', async () => {
    const env = {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Two quick retries, then enough slower ones to outlast the restart below.
      WEBHOOK_RETRY_SCHEDULE_MS: ['10', '10', ...Array(20).fill('1000')].join(','),
    };
    const receiver = await trusted.start();
    const local = await createTestContext(env);
    try {
      const project = await createProject(local.app);
      const as = asProject(local.app, project);
      const created = (
        await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url } })
      ).json() as { id: string; secret: string };
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      const failures = async () =>
        (await deliveryLog(as, created.id)).filter((item) => item.status === 'failed');
      await eventually(async () => (await failures()).length >= 2);
      for (const failed of await failures()) {
        expect(failed.responseStatus).toBeNull();
        expect(failed.error).toMatch(SELF_SIGNED);
      }
      // The request never went out: the event was not shown to a receiver the sender could not verify.
      expect(receiver.received).toHaveLength(0);
      await local.app.close();

      // The operator trusts the receiver's authority and restarts: the pending retry succeeds.
      const config: Config = Object.freeze({ ...local.config, WEBHOOK_CA_FILE: trusted.caFile });
      const second = await buildApp({ config, database: local.database.handle, validateResponses: true });
      await second.ready();
      try {
        const again = asProject(second, project);
        await eventually(async () =>
          (await deliveryLog(again, created.id)).some((item) => item.status === 'succeeded'),
        );
        expect(receiver.received).toHaveLength(1);
        const request = receiver.received[0]!;
        const log = await deliveryLog(again, created.id);
        const succeeded = log.find((item) => item.status === 'succeeded')!;
        expect(succeeded.attempt).toBeGreaterThan(
          Math.max(...log.filter((item) => item.status === 'failed').map((item) => item.attempt)),
        );
        expect(request.headers['webhook-id']).toBe(succeeded.eventId);
        expect(() =>
          new Webhook(created.secret).verify(request.body, request.headers as Record<string, string>),
        ).not.toThrow();
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await local.database.close();
    }
  });

  it('trusts only what WEBHOOK_CA_FILE names besides the default roots: another self-signed receiver still fails', async () => {
    const ctx = await createTestContext({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: trusted.caFile,
      WEBHOOK_RETRY_SCHEDULE_MS: '10,600000',
    });
    const known = await trusted.start();
    const stranger = await strangers.start();
    try {
      const as = asProject(ctx.app, await createProject(ctx.app));
      const register = async (url: string) =>
        ((await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url } })).json() as { id: string })
          .id;
      const [knownId, strangerId] = [await register(known.url), await register(stranger.url)];
      await as({ method: 'POST', url: '/api/v1/memory', payload: { value: 'tea' } });
      await eventually(async () =>
        (await deliveryLog(as, knownId)).some((item) => item.status === 'succeeded'),
      );
      await eventually(
        async () =>
          (await deliveryLog(as, strangerId)).filter((item) => item.status === 'failed').length === 2,
      );
      const failed = (await deliveryLog(as, strangerId)).filter((item) => item.status === 'failed');
      expect(failed.map((item) => item.error)).toEqual([
        expect.stringMatching(SELF_SIGNED),
        expect.stringMatching(SELF_SIGNED),
      ]);
      expect(known.received).toHaveLength(1);
      expect(stranger.received).toHaveLength(0);
    } finally {
      await known.close();
      await stranger.close();
      await ctx.close();
    }
  });
});

describe('WEBHOOK_CA_FILE', () => {
  it("adds the file's certificates to Node's default roots, never in their place", async () => {
    const pem = await readWebhookCaFile({ WEBHOOK_CA_FILE: trusted.caFile });
    expect(pem).toBe(readFileSync(trusted.caFile, 'utf8'));
    const ca = withDefaultRoots(pem!);
    expect(ca.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
    expect(ca.at(-1)).toBe(pem);
  });

  it('keeps only the certificates of a bundle (a private key beside them is left out)', async () => {
    const bundle = join(dir, 'bundle.pem');
    const [first, second] = [readFileSync(trusted.caFile, 'utf8'), readFileSync(strangers.caFile, 'utf8')];
    writeFileSync(
      bundle,
      `# company roots\n${first}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${second}`,
    );
    const pem = await readWebhookCaFile({ WEBHOOK_CA_FILE: bundle });
    expect(pem).toBe(`${first.trim()}\n${second.trim()}\n`);
  });

  it('is a configuration error when the file cannot be read, holds no certificate or a broken one', async () => {
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'no certificate here\n');
    const broken = join(dir, 'broken.pem');
    writeFileSync(
      broken,
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
    );
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.pem'), /^WEBHOOK_CA_FILE: cannot read .*missing\.pem \(ENOENT\)$/],
      [dir, /^WEBHOOK_CA_FILE: cannot read .* \(EISDIR\)$/],
      [empty, /^WEBHOOK_CA_FILE: .*empty\.pem holds no PEM certificate$/],
      [broken, /^WEBHOOK_CA_FILE: certificate 1 of 1 in .*broken\.pem does not parse$/],
    ];
    for (const [path, problem] of cases) {
      const error = await readWebhookCaFile({ WEBHOOK_CA_FILE: path }).catch((caught: unknown) => caught);
      expect(error, path).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems, path).toEqual([expect.stringMatching(problem)]);
    }
    expect(await readWebhookCaFile({})).toBeUndefined();
  });

  it(
    'stops the server and `parley worker` at start with exit code 2 naming the file',
    async () => {
      const env = { WEBHOOK_CA_FILE: join(dir, 'missing-ca.pem'), PORT: '0' };
      // The server names every file it cannot read at once, the TLS ones too.
      const server = await runNode(['src/server.ts'], {
        env: { ...env, TLS_CERT_FILE: join(dir, 'missing.crt'), TLS_KEY_FILE: join(dir, 'missing.key') },
      });
      expect(server.code, server.stderr).toBe(2);
      expect(server.stderr).toMatch(/WEBHOOK_CA_FILE: cannot read .*missing-ca\.pem \(ENOENT\)/);
      expect(server.stderr).toContain('TLS_CERT_FILE: cannot read');
      const worker = await runNode(['src/cli.ts', 'worker'], { env });
      expect(worker.code, worker.stderr).toBe(2);
      expect(worker.stderr).toMatch(/WEBHOOK_CA_FILE: cannot read .*missing-ca\.pem \(ENOENT\)/);
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );
});
