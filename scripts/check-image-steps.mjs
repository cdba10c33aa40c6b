#!/usr/bin/env node
// Performs the Dockerfile's steps without Docker (this machine has no engine) and checks that the
// result starts and becomes ready: `npm run check:image`.
//
// It reads the Dockerfile itself, so the check cannot drift from the image: each stage gets a
// folder of its own standing for the container's root, WORKDIR/ENV/COPY/RUN/USER are carried out
// there (RUN through `sh -c` in the stage's WORKDIR, with the stage's ENV), then the final stage's
// CMD is started as the image's user (uid 1000, the `node` user of the official Node images) with
// the image's ENV, the HEALTHCHECK command is run until it passes, /readyz must answer 200, the
// console must be served, and the STOPSIGNAL must stop the server with exit code 0. RUN lines
// must use paths relative to WORKDIR.
//
// Options: --keep (leave the temporary folder), --dockerfile PATH.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const context = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const dockerfilePath = args.includes('--dockerfile') ? args[args.indexOf('--dockerfile') + 1] : 'Dockerfile';
/** The official Node images' `node` user. */
const IMAGE_USERS = { node: { uid: 1000, gid: 1000 }, root: { uid: 0, gid: 0 } };

function log(message) {
  process.stdout.write(`[check-image] ${message}\n`);
}

function fail(message) {
  process.stderr.write(`[check-image] FAILED: ${message}\n`);
  process.exit(1);
}

/** Dockerfile instructions: comments dropped, continuation lines joined. */
function parseDockerfile(text) {
  const instructions = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (pending && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(full);
    instructions.push({ keyword: keyword.toUpperCase(), args: rest });
  }
  return instructions;
}

/** Splits `--flag=value` options off the front of an instruction's arguments. */
function takeFlags(argText) {
  const flags = {};
  let rest = argText;
  for (let match = /^--([\w-]+)=(\S+)\s+/.exec(rest); match; match = /^--([\w-]+)=(\S+)\s+/.exec(rest)) {
    flags[match[1]] = match[2];
    rest = rest.slice(match[0].length);
  }
  return { flags, rest };
}

/** `KEY=value KEY2="v 2"` or the legacy `KEY value` form. */
function parseEnv(argText, substitute) {
  const pairs = {};
  if (!argText.includes('=')) {
    const [key, ...value] = argText.split(/\s+/);
    pairs[key] = substitute(value.join(' '));
    return pairs;
  }
  for (const match of argText.matchAll(/([\w.-]+)=("([^"]*)"|\S*)/g)) {
    pairs[match[1]] = substitute(match[3] ?? match[2]);
  }
  return pairs;
}

/** Exec form (JSON array) or shell form. */
function commandOf(argText) {
  return argText.startsWith('[') ? JSON.parse(argText) : ['/bin/sh', '-c', argText];
}

function chownRecursive(path, owner) {
  lchownSync(path, owner.uid, owner.gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownRecursive(join(path, entry), owner);
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const instructions = parseDockerfile(readFileSync(join(context, dockerfilePath), 'utf8'));
const workRoot = mkdtempSync(join(tmpdir(), 'parley-image-'));
// The image's user must be able to reach its files through the temporary folder.
chmodSync(workRoot, 0o755);
const asRoot = process.getuid?.() === 0;
log(`building in ${workRoot} from ${dockerfilePath}`);

const buildArgs = {};
const stages = [];
let stage;
const substitute = (value) =>
  value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => stage?.env[a ?? b] ?? buildArgs[a ?? b] ?? '');
/** A container path of the current stage, as a path in its folder. */
const inStage = (target, path) => join(target.root, isAbsolute(path) ? path : join(target.workdir, path));

for (const { keyword, args: rawArgs } of instructions) {
  switch (keyword) {
    case 'ARG': {
      const [name, value] = rawArgs.split('=');
      if (!(name in buildArgs)) buildArgs[name] = value ?? '';
      break;
    }
    case 'FROM': {
      const [, name] = /\bAS\s+(\S+)/i.exec(rawArgs) ?? [];
      const root = join(workRoot, `stage-${stages.length}`);
      mkdirSync(root, { recursive: true });
      chmodSync(root, 0o755);
      stage = { name, root, workdir: '/', env: {}, user: 'root', cmd: undefined, healthcheck: undefined };
      stages.push(stage);
      log(`FROM ${substitute(rawArgs)} -> ${root}`);
      break;
    }
    case 'WORKDIR':
      stage.workdir = resolve(stage.workdir, substitute(rawArgs));
      mkdirSync(inStage(stage, '.'), { recursive: true });
      break;
    case 'ENV':
      Object.assign(stage.env, parseEnv(rawArgs, substitute));
      break;
    case 'COPY': {
      const { flags, rest } = takeFlags(rawArgs);
      const parts = rest.split(/\s+/).map(substitute);
      const destination = parts.pop();
      const from = flags.from ? stages.find((s) => s.name === flags.from) : undefined;
      if (flags.from && !from) fail(`COPY --from=${flags.from}: no such stage`);
      for (const source of parts) {
        const sourcePath = from ? inStage(from, source) : join(context, source);
        const toDir = destination.endsWith('/') || parts.length > 1;
        const target = inStage(stage, toDir ? join(destination, source.split('/').pop()) : destination);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(sourcePath, target, { recursive: true });
        if (flags.chown && asRoot) {
          const user = IMAGE_USERS[flags.chown.split(':')[0]];
          if (!user) fail(`COPY --chown=${flags.chown}: unknown user`);
          chownRecursive(target, user);
        }
      }
      log(`COPY ${rawArgs}`);
      break;
    }
    case 'RUN': {
      // `chown node:...` names a user this machine may not have: use the image's numeric ids.
      const command = substitute(rawArgs).replace(/\bchown (\w+):(\w+)/g, (whole, user) =>
        IMAGE_USERS[user] ? `chown ${IMAGE_USERS[user].uid}:${IMAGE_USERS[user].gid}` : whole,
      );
      log(`RUN ${command}`);
      if (!asRoot && /\bchown\b/.test(command)) {
        log('  (not root: chown skipped)');
        break;
      }
      const result = spawnSync('/bin/sh', ['-c', command], {
        cwd: inStage(stage, '.'),
        env: { ...process.env, ...stage.env },
        stdio: 'inherit',
      });
      if (result.status !== 0) fail(`RUN exited with ${result.status}`);
      break;
    }
    case 'USER':
      stage.user = substitute(rawArgs);
      break;
    case 'CMD':
      stage.cmd = commandOf(rawArgs);
      break;
    case 'HEALTHCHECK': {
      const { rest } = takeFlags(rawArgs);
      stage.healthcheck = commandOf(rest.replace(/^CMD\s+/, ''));
      break;
    }
    case 'STOPSIGNAL':
      stage.stopSignal = rawArgs.trim();
      break;
    case 'LABEL':
    case 'EXPOSE':
    case 'VOLUME':
      break;
    default:
      fail(`instruction ${keyword} is not supported by this check`);
  }
}

const image = stages.at(-1);
if (!image.cmd) fail('the final stage has no CMD');
if (image.user === 'root') fail('the image runs as root');
if (!image.healthcheck) fail('the image has no HEALTHCHECK');

// As `docker run -e PORT=...`: a free port, everything else from the image's ENV.
const port = await freePort();
// Container paths in ENV (DATA_DIR=/app/data) point into the stage's folder.
const imageEnv = Object.fromEntries(
  Object.entries(image.env).map(([key, value]) => [
    key,
    isAbsolute(value) && existsSync(join(image.root, value.split('/')[1])) ? join(image.root, value) : value,
  ]),
);
const runEnv = { PATH: process.env.PATH, HOME: '/tmp', ...imageEnv, PORT: String(port), LOG_LEVEL: 'warn' };
const user = asRoot ? IMAGE_USERS[image.user] : undefined;
if (asRoot && !user) fail(`USER ${image.user} is not a known image user`);
const runOptions = { cwd: inStage(image, '.'), env: runEnv, ...(user ?? {}) };

log(`CMD ${JSON.stringify(image.cmd)} as ${image.user}${user ? ` (uid ${user.uid})` : ''} on port ${port}`);
const server = spawn(image.cmd[0], image.cmd.slice(1), {
  ...runOptions,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolveExit) =>
  server.once('exit', (code, signal) => resolveExit({ code, signal })),
);

async function cleanUp() {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  if (!keep) rmSync(workRoot, { recursive: true, force: true });
}

try {
  const deadline = Date.now() + 120_000;
  let healthy = false;
  while (!healthy && Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early with ${server.exitCode}`);
    const check = spawnSync(image.healthcheck[0], image.healthcheck.slice(1), {
      ...runOptions,
      stdio: 'ignore',
    });
    healthy = check.status === 0;
    if (!healthy) await sleep(500);
  }
  if (!healthy) throw new Error('HEALTHCHECK never passed');
  log('HEALTHCHECK passed');

  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  const body = await ready.json();
  if (ready.status !== 200 || body.status !== 'ready') {
    throw new Error(`/readyz answered ${ready.status} ${JSON.stringify(body)}`);
  }
  log(`/readyz: ${ready.status} ${JSON.stringify(body)}`);

  // The image serves the web console it built (D102).
  const page = await fetch(`http://127.0.0.1:${port}/console/dialogues`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('/console/assets/')) {
    throw new Error(`/console answered ${page.status}: ${html.slice(0, 200)}`);
  }
  log(`/console: ${page.status}, the built page`);

  server.kill(image.stopSignal ?? 'SIGTERM');
  const outcome = await Promise.race([exited, sleep(30_000).then(() => undefined)]);
  if (!outcome) throw new Error('the server did not stop within 30 s of the stop signal');
  if (outcome.code !== 0) throw new Error(`the server stopped with ${JSON.stringify(outcome)}`);
  log('stop signal: exited with code 0');
  log('OK');
} catch (error) {
  await cleanUp();
  fail(error.message);
}
await cleanUp();
