import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchServer {
  baseUrl: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Runs a TypeScript entry of the benchmark in its own process, with only the given environment.
 * Node with tsx's loader, not the tsx CLI: the CLI relays SIGTERM only if its child acknowledges it
 * within 30 ms and kills it otherwise, which a busy child (a thousand open streams) does not.
 */
function spawnEntry(entry: string, env: Record<string, string>, stdout: 'ignore' | 'pipe'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

export interface Probe {
  /** Stops the probe (SIGTERM) and resolves with the one JSON line it prints then. */
  finish(): Promise<unknown>;
}

/** Starts a probe entry that prints `ready` once it runs and a JSON line of figures on SIGTERM. */
export async function startProbe(entry: string, env: Record<string, string>): Promise<Probe> {
  const child = spawnEntry(entry, env, 'pipe');
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  while (!output.includes('ready\n')) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async finish() {
      child.kill('SIGTERM');
      const [code] = await exited;
      if (code !== 0) throw new Error(`${entry} exited with ${code}`);
      return JSON.parse(output.slice(output.indexOf('ready\n') + 6).trim());
    },
  };
}

/** Starts a TypeScript server entry in its own process (its own core), waits for `readyPath`. */
export async function startServer(
  entry: string,
  env: Record<string, string>,
  readyPath = '/readyz',
): Promise<BenchServer> {
  const port = await freePort();
  const child = spawnEntry(
    entry,
    { LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    'pipe',
  );
  // The server's log (warnings and errors) is kept only to say why a start failed.
  let log = '';
  const keepTail = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keepTail);
  const failed = (why: string) => new Error(`${entry} ${why}; its log ends:\n${log}`);
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw failed(`exited with ${child.exitCode}`);
    try {
      if ((await fetch(baseUrl + readyPath)).ok) break;
    } catch {
      // not yet listening
    }
    // Five minutes: an embedded store of 10^5 messages opens slowly.
    if (performance.now() - started > 300_000) throw failed('was not ready after 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.stdout!.off('data', keepTail);
  child.stdout!.resume();
  return {
    baseUrl,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
