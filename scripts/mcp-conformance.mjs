#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance) against Parley's MCP
// endpoint: `npm run test:mcp-conformance`, run by CI on Node 24 (the suite needs Node 22 or later).
//
// A fresh Parley is started as `npm start` starts it (loopback, embedded database in a temporary
// folder, a bootstrap key). The suite sends no Authorization header, so a small proxy in front of
// Parley adds the key and passes everything else through untouched, Host and Origin included: the
// DNS-rebinding scenario must reach Parley's own checks (D100).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The server scenarios that apply to a stateless MCP server with tools and resources. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

function log(message) {
  process.stdout.write(`[mcp-conformance] ${message}\n`);
}

if (Number(process.versions.node.split('.')[0]) < 22) {
  log(`the conformance suite needs Node 22 or later; this is ${process.version}`);
  process.exit(1);
}

/** A port free on loopback now (the server is told to listen on it). */
async function freePort() {
  const probe = createNetServer();
  await new Promise((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

async function waitUntilReady(url, server) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Parley exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error('Parley did not become ready within 120 s');
}

/** Forwards every request to Parley with the key added; listens on 127.0.0.1 and ::1 (both `localhost`). */
async function startProxy(target, apiKey) {
  const handle = (incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${apiKey}` };
    const upstream = request(
      { host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      outgoing.writeHead(502);
      outgoing.end(String(error));
    });
    incoming.pipe(upstream);
  };
  const v4 = createServer(handle);
  await new Promise((done) => v4.listen(0, '127.0.0.1', done));
  const { port } = v4.address();
  const v6 = createServer(handle);
  // Without IPv6 on the machine, `localhost` is 127.0.0.1 only.
  await new Promise((done) => v6.once('error', done).listen(port, '::1', done));
  return {
    port,
    close: () => Promise.all([v4, v6].map((server) => new Promise((done) => server.close(done)))),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'parley-conformance-'));
const apiKey = `prly_conformance_${randomBytes(16).toString('hex')}`;
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDINGS: 'none',
    BOOTSTRAP_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let proxy;
let failed = [];
try {
  await waitUntilReady(`http://127.0.0.1:${port}/readyz`, server);
  proxy = await startProxy(port, apiKey);
  for (const scenario of SCENARIOS) {
    log(`scenario ${scenario}`);
    const run = spawn(
      process.execPath,
      [suite, 'server', '--url', `http://localhost:${proxy.port}/mcp/v1`, '--scenario', scenario],
      { cwd: root, stdio: 'inherit' },
    );
    const code = await new Promise((done) => run.on('exit', done));
    if (code !== 0) failed.push(scenario);
  }
} catch (error) {
  failed = [`start: ${error.message}`];
} finally {
  await proxy?.close();
  server.kill('SIGTERM');
  await new Promise((done) => (server.exitCode === null ? server.on('exit', done) : done()));
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed.length > 0) {
  log(`FAILED: ${failed.join(', ')}`);
  process.exit(1);
}
log(`passed: ${SCENARIOS.join(', ')}`);
