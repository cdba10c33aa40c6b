import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN } from './app.js';

// Real server processes (`node --import tsx src/server.ts`, as the image runs it) for lifecycle,
// crash and multi-instance tests. Each listens on a port of its own choosing (PORT=0) and is
// killed by the test that started it, by pid.

const serverEntry = join(import.meta.dirname, '..', '..', 'src', 'server.ts');

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every stdout and stderr line so far (JSON log lines and plain text). */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first output line matching `pattern`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
}

/** A temporary DATA_DIR for the embedded database; removed by the returned function. */
export function temporaryDataDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'parley-data-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface StartOptions {
  /** Resolve as soon as the process runs, without waiting for it to listen. */
  waitForListening?: boolean;
  timeoutMs?: number;
}

/** Starts a server process with a clean environment plus `env`; resolves when it listens. */
export async function startServerProcess(
  env: Record<string, string>,
  { waitForListening = true, timeoutMs = 60_000 }: StartOptions = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      EMBEDDINGS: 'none',
      ADMIN_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      for (const watcher of watchers) watcher(line);
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const waitForOutput = (pattern: RegExp, timeout = timeoutMs) =>
    new Promise<string>((resolve, reject) => {
      const seen = output.find((line) => pattern.test(line));
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        watchers.delete(watcher);
        reject(new Error(`no output matching ${pattern} within ${timeout} ms:\n${output.join('\n')}`));
      }, timeout);
      const watcher = (line: string) => {
        if (!pattern.test(line)) return;
        clearTimeout(timer);
        watchers.delete(watcher);
        resolve(line);
      };
      watchers.add(watcher);
      void exited.then(({ code, signal }) => {
        if (!watchers.has(watcher)) return;
        clearTimeout(timer);
        watchers.delete(watcher);
        reject(new Error(`server exited (${code ?? signal}) before ${pattern}:\n${output.join('\n')}`));
      });
    });

  const server: ServerProcess = {
    child,
    pid: child.pid!,
    url: '',
    output,
    exited,
    waitForOutput,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
    },
  };
  if (waitForListening) await listeningUrl(server);
  return server;
}

/** The url of a server started with `waitForListening: false`, once it listens. */
export async function listeningUrl(server: ServerProcess, timeoutMs?: number): Promise<string> {
  const line = await server.waitForOutput(/Server listening at http:\/\/127\.0\.0\.1:\d+/, timeoutMs);
  server.url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
  return server.url;
}

/** Kills the process (SIGKILL unless told otherwise) and waits until it is gone. */
export async function stopServerProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL') {
  server.kill(signal);
  return server.exited;
}
