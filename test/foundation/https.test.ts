import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  freshStoreEnv,
  runNode,
  startServerProcess,
} from '../helpers/processes.js';
import { type SelfSigned, selfSignedCertificate } from '../helpers/tls.js';

// D60: TLS_CERT_FILE and TLS_KEY_FILE make the real server process speak HTTPS (HTTP/1.1) on
// PORT, with the certificate re-read on SIGHUP.

const API_KEY = 'https-test-key-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'parley-tls-'));
let first: SelfSigned;
let second: SelfSigned;
let server: RunningServer;
let removeStore: () => Promise<void>;
/** The paths the server reads; the tests put either certificate there. */
const certFile = join(dir, 'server.crt');
const keyFile = join(dir, 'server.key');

function install(pair: SelfSigned) {
  copyFileSync(pair.certFile, certFile);
  copyFileSync(pair.keyFile, keyFile);
}

interface Answer {
  status: number;
  httpVersion: string;
  fingerprint256: string;
  body: string;
}

/** One request on a fresh connection, trusting exactly `ca` (no keep-alive: each sees the current certificate). */
function request(path: string, options: { ca: string; method?: string; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${server.baseUrl}${path}`,
      {
        method: options.method ?? 'GET',
        ca: options.ca,
        servername: 'localhost',
        agent: false,
        // As the DialogueDB client sends it: lower-case authorization, no Content-Type.
        headers: { authorization: `Bearer ${API_KEY}` },
      },
      (res) => {
        const fingerprint256 = (res.socket as import('node:tls').TLSSocket).getPeerCertificate()
          .fingerprint256;
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        res.on('end', () =>
          resolve({ status: res.statusCode!, httpVersion: res.httpVersion, fingerprint256, body }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

beforeAll(async () => {
  first = selfSignedCertificate(dir, 'first');
  second = selfSignedCertificate(dir, 'second');
  install(first);
  const store = await freshStoreEnv();
  removeStore = store.remove;
  server = await startServerProcess({
    ...store.env,
    LOG_LEVEL: 'info',
    BOOTSTRAP_API_KEY: API_KEY,
    TLS_CERT_FILE: certFile,
    TLS_KEY_FILE: keyFile,
  });
}, SPAWNING_TEST_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await removeStore?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTPS (D60)', () => {
  it('serves the API over HTTPS with HTTP/1.1 and the configured certificate', async () => {
    expect(server.baseUrl).toMatch(/^https:/);
    const health = await request('/healthz', { ca: first.cert });
    expect(health).toMatchObject({ status: 200, httpVersion: '1.1', fingerprint256: first.fingerprint256 });
    // A write as the client makes it: JSON without a Content-Type (D52).
    const created = await request('/api/v1/dialogue', {
      ca: first.cert,
      method: 'POST',
      body: JSON.stringify({ label: 'over TLS', message: { role: 'user', content: 'hello' } }),
    });
    expect(created.status, created.body).toBe(201);
    expect(JSON.parse(created.body).messages[0].content).toBe('hello');
  });

  it('speaks no plain HTTP on the port', async () => {
    const plain = server.baseUrl.replace('https:', 'http:');
    const outcome = await new Promise<string>((resolve) => {
      const req = http.get(`${plain}/healthz`, { agent: false }, (res) => {
        res.resume();
        resolve(`status ${res.statusCode}`);
      });
      req.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
    });
    expect(outcome).not.toBe('status 200');
  });

  it('is trusted by a Node client through NODE_EXTRA_CA_CERTS, as the README says', async () => {
    const script = `const https = require('node:https');
      https.get(process.argv[1], { agent: new https.Agent({ keepAlive: true }) }, (res) => {
        res.resume(); console.log('status', res.statusCode); process.exit(0);
      }).on('error', (error) => { console.log('error', error.code); process.exit(1); });`;
    const run = await runNode(['-e', script, `https://localhost:${new URL(server.baseUrl).port}/healthz`], {
      env: { NODE_EXTRA_CA_CERTS: certFile },
    });
    expect(run.stdout.trim(), run.stderr).toBe('status 200');
  });

  it("passes the image's health check over HTTPS", async () => {
    const port = new URL(server.baseUrl).port;
    const run = await runNode(['scripts/healthcheck.mjs'], { env: { PORT: port, TLS_CERT_FILE: certFile } });
    expect(run.code, run.stderr).toBe(0);
  });

  it('re-reads the certificate on SIGHUP, and keeps the current one when the new files are bad', async () => {
    install(second);
    process.kill(server.pid, 'SIGHUP');
    await server.waitForOutput(/TLS certificate reloaded/);
    const renewed = await request('/healthz', { ca: second.cert });
    expect(renewed).toMatchObject({ status: 200, fingerprint256: second.fingerprint256 });

    // A key that does not belong to the certificate: the reload fails, the server keeps serving.
    copyFileSync(first.certFile, certFile);
    writeFileSync(keyFile, 'not a key');
    process.kill(server.pid, 'SIGHUP');
    await server.waitForOutput(/TLS certificate reload failed/);
    const kept = await request('/healthz', { ca: second.cert });
    expect(kept).toMatchObject({ status: 200, fingerprint256: second.fingerprint256 });
  });
});

describe('TLS configuration (D60)', () => {
  it('refuses one of TLS_CERT_FILE and TLS_KEY_FILE without the other', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: '/x.crt' })).toThrow(/TLS_KEY_FILE: TLS_CERT_FILE is set/);
    expect(() => loadConfig({ TLS_KEY_FILE: '/x.key' })).toThrow(/TLS_CERT_FILE: TLS_KEY_FILE is set/);
    expect(loadConfig({ TLS_CERT_FILE: '/x.crt', TLS_KEY_FILE: '/x.key' }).TLS_CERT_FILE).toBe('/x.crt');
  });

  it(
    'stops at start with exit code 2 naming a file it cannot read',
    async () => {
      const run = await runNode(['src/server.ts'], {
        env: { TLS_CERT_FILE: join(dir, 'missing.crt'), TLS_KEY_FILE: join(dir, 'missing.key'), PORT: '0' },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('TLS_CERT_FILE: cannot read');
      expect(run.stderr).toContain('ENOENT');
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );
});
