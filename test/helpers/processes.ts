import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createServerDatabase, testServerUrl } from './database.js';

// Child processes for tests: the real server and CLI, run through tsx like `npm start`.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/** What `node --import tsx` loads (tsx's main export is its loader). */
const tsxLoader = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
).href;

/** The environment of a child: only what the test gives, plus PATH and HOME. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    EMBEDDINGS: 'none',
    // No shedding on event-loop delay on a shared test machine, unless a test asks for it.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  };
}

/**
 * One process, as the image runs it (`node --import tsx`): the tsx CLI would run the program in a
 * child of its own, and a SIGKILL sent to the CLI's pid would leave that child running.
 */
function spawnTs(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', tsxLoader, ...args], {
    cwd: projectRoot,
    env: childEnv(env),
    stdio: 'pipe',
  });
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry to completion (killing it by its pid after timeoutMs). */
export async function runNode(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunResult> {
  const child = spawnTs(args, options.env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  // 'close', not 'exit': it comes once stdout and stderr have ended, so the output is complete.
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface RunningCommand {
  child: ChildProcess;
  pid: number;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `parley ARGS` without waiting for it, its standard input left open for the test to use. */
export function spawnCli(args: string[], env: Record<string, string>): RunningCommand {
  const child = spawnTs(['src/cli.ts', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': it comes once stdout and stderr have ended, so output() is complete.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, pid: child.pid!, output: () => ({ stdout, stderr }), exited };
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  /** Everything the server printed on stdout so far. */
  output(): string;
  /** Every line printed on stdout and stderr so far (JSON log lines and plain text). */
  lines(): string[];
  /** Resolves with the first line of output matching `pattern`; rejects if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until /readyz answers 200. */
  ready(timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `src/server.ts` on a free port without waiting for it (see `ready()`). */
export async function spawnServerProcess(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnTs(['src/server.ts'], { HOST: '127.0.0.1', PORT: String(port), ...env });
  let stdout = '';
  let stderr = '';
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      for (const watcher of watchers) watcher(line);
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk;
    collect(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
    collect(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': it comes once stdout and stderr have ended, so output() is complete.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  // D60: with a certificate the server speaks HTTPS.
  const baseUrl = `${env.TLS_CERT_FILE ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    child,
    pid: child.pid!,
    baseUrl,
    output: () => stdout,
    lines: () => lines,
    exited,
    waitForOutput: (pattern, timeoutMs = 60_000) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines.find((line) => pattern.test(line));
        if (seen) return resolve(seen);
        const finish = (error?: Error, line?: string) => {
          clearTimeout(timer);
          watchers.delete(watcher);
          if (error) reject(error);
          else resolve(line!);
        };
        const watcher = (line: string) => {
          if (pattern.test(line)) finish(undefined, line);
        };
        const timer = setTimeout(
          () => finish(new Error(`no output matching ${pattern} in ${timeoutMs} ms:\n${lines.join('\n')}`)),
          timeoutMs,
        );
        watchers.add(watcher);
        void exited.then(({ code, signal }) => {
          if (watchers.has(watcher))
            finish(new Error(`server exited (${code ?? signal}) before ${pattern}: ${stderr}`));
        });
      }),
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
        try {
          if ((await statusOf(`${baseUrl}/readyz`)) === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`server did not become ready: ${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return (await exited).code;
    },
  };
}

/** Starts `src/server.ts` on a free port and waits until /readyz answers 200. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunningServer> {
  const server = await spawnServerProcess(env);
  await server.ready(timeoutMs);
  return server;
}

/** The status of a GET; over HTTPS without checking the certificate (readiness, not trust). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onResponse = (response: http.IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    };
    const request = url.startsWith('https:')
      ? https.get(url, { rejectUnauthorized: false, agent: false }, onResponse)
      : http.get(url, { agent: false }, onResponse);
    request.on('error', reject);
  });
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * The store for a server process: a fresh database on the server of TEST_DATABASE_URL, or an
 * empty DATA_DIR for the embedded database (the default without TEST_DATABASE_URL, or when asked
 * for). `remove` drops or deletes it.
 */
export async function freshStoreEnv(
  kind: 'postgres' | 'pglite' = testServerUrl() ? 'postgres' : 'pglite',
): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  const serverUrl = testServerUrl();
  if (kind === 'postgres') {
    if (!serverUrl) throw new Error('a Postgres store needs TEST_DATABASE_URL');
    const database = await createServerDatabase(serverUrl);
    return { env: { DATABASE_URL: database.url }, remove: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'parley-data-'));
  return { env: { DATA_DIR: dir }, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The time limit of a test that spawns Parley processes: each start compiles TypeScript (tsx) and
 * opens a database, 20 s and more on a loaded 2-core machine. A limit, not an assertion: speed is
 * shown by benchmarks, never by tests.
 */
export const SPAWNING_TEST_TIMEOUT_MS = 300_000;
