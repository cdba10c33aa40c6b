import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Child processes for tests: the real server and CLI, run through tsx like `npm start`.

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

/** The environment of a child: only what the test gives, plus PATH and HOME. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', EMBEDDINGS: 'none', ...env };
}

export function spawnTs(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [tsxCli, ...args], { cwd: projectRoot, env: childEnv(env), stdio: 'pipe' });
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
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the server printed on stdout so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `src/server.ts` on a free port and waits until /readyz answers 200. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnTs(['src/server.ts'], { HOST: '127.0.0.1', PORT: String(port), ...env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    baseUrl,
    output: () => stdout,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
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
