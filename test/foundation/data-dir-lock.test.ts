import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { DATA_DIR_LOCK_FILE, DataDirInUseError, lockDataDir } from '../../src/db/data-dir-lock.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  runNode,
  spawnCli,
  spawnServerProcess,
  startServerProcess,
} from '../helpers/processes.js';
import { eventually } from '../helpers/eventually.js';

// One process at a time on an embedded DATA_DIR: the server and every `parley` command take the
// data directory's lock (src/db/data-dir-lock.ts); a second opener is refused with what to do.

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-lock-'));
  dirs.push(dir);
  return dir;
}

/** Who the lock file names as its holder. */
function lockHolder(dir: string): { pid?: number } {
  try {
    return JSON.parse(readFileSync(join(dir, DATA_DIR_LOCK_FILE), 'utf8'));
  } catch {
    return {};
  }
}

describe('the data directory lock, in one process', () => {
  it('refuses a second holder, names the first, and is free again once released', () => {
    const dir = dataDir();
    const lock = lockDataDir(dir, { kind: 'command', command: 'export' });
    expect(lockHolder(dir)).toMatchObject({ kind: 'command', command: 'export', pid: process.pid });

    let refused: unknown;
    try {
      lockDataDir(dir, { kind: 'server', url: 'http://localhost:3000', adminApi: true });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`in use by \`parley export\` (pid ${process.pid}`);
    expect((refused as Error).message).toContain('Wait for that command to end');

    lock.release();
    lock.release();
    const again = lockDataDir(dir, { kind: 'command', command: 'migrate' });
    expect(lockHolder(dir)).toMatchObject({ command: 'migrate' });
    again.release();
  });

  it('tells a command beside a server to stop it or use its admin API, with the curl to run', () => {
    const dir = dataDir();
    const server = lockDataDir(dir, { kind: 'server', url: 'http://localhost:4100', adminApi: true });
    try {
      const message = () => {
        try {
          lockDataDir(dir, { kind: 'command', command: 'project create' });
        } catch (error) {
          return (error as Error).message;
        }
        throw new Error('the second lock was granted');
      };
      expect(message()).toContain(`in use by the Parley server (pid ${process.pid}`);
      expect(message()).toContain('listening on http://localhost:4100');
      expect(message()).toContain('Stop the server first');
      expect(message()).toContain(
        `curl -X POST http://localhost:4100/admin/v1/projects -H "Authorization: Bearer $ADMIN_TOKEN"`,
      );
      expect(message()).toContain('DATABASE_URL');
    } finally {
      server.release();
    }
  });

  it('says how to turn the admin API on when the holding server runs without it', () => {
    const dir = dataDir();
    const server = lockDataDir(dir, { kind: 'server', url: 'http://localhost:4100', adminApi: false });
    try {
      expect(() => lockDataDir(dir, { kind: 'command', command: 'key create' })).toThrow(
        'restart it with ADMIN_TOKEN set',
      );
      // A second server is told to stop the first or use another directory, not the admin API.
      expect(() =>
        lockDataDir(dir, { kind: 'server', url: 'http://localhost:4101', adminApi: true }),
      ).toThrow('Stop that server first, or give this one another DATA_DIR');
    } finally {
      server.release();
    }
  });

  it('keeps a second embedded database from opening the directory, and lets it open after close', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
      // The refused opener changed nothing for the holder.
      await first.db.execute(sql`SELECT 1`);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ dataDir: dir });
    await second.close();
  });
});

describe('the data directory lock between processes', { timeout: SPAWNING_TEST_TIMEOUT_MS }, () => {
  it('refuses `parley project create` while a server holds DATA_DIR, and nothing is created', async () => {
    const env = { DATA_DIR: dataDir(), ADMIN_TOKEN: 'admin-token-0123456789' };
    const server = await startServerProcess(env);
    servers.push(server);

    const refused = await runNode(['src/cli.ts', 'project', 'create', 'beside-the-server'], { env });
    expect(refused.code).toBe(1);
    // No key "shown once" that the server would never accept.
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`in use by the Parley server (pid ${server.pid}`);
    expect(refused.stderr).toContain(`curl -X POST ${server.baseUrl}/admin/v1/projects`);

    // What the message says to do instead works.
    const viaAdmin = await fetch(`${server.baseUrl}/admin/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'through-the-server' }),
    });
    expect(viaAdmin.status).toBe(201);

    expect(await server.stop('SIGTERM')).toBe(0);
    const listed = await runNode(['src/cli.ts', 'project', 'list'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { items: { name: string }[] }).items.map((p) => p.name);
    expect(names).toContain('through-the-server');
    expect(names).not.toContain('beside-the-server');
  });

  it('refuses to start a server while a `parley` command holds DATA_DIR, with a clear message', async () => {
    const env = { DATA_DIR: dataDir() };
    const created = await runNode(['src/cli.ts', 'project', 'create', 'target'], { env });
    expect(created.code, created.stderr).toBe(0);
    const projectId = (JSON.parse(created.stdout) as { project: { id: string } }).project.id;

    // `parley import` reading standard input holds the store until its input ends.
    const importing = spawnCli(['import', '--project', projectId], env);
    try {
      await eventually(() => lockHolder(env.DATA_DIR).pid === importing.pid, {
        what: 'the import to take the lock',
        timeoutMs: 60_000,
      });

      const server = await spawnServerProcess(env);
      servers.push(server);
      const { code } = await server.exited;
      expect(code).toBe(1);
      const said = server.lines().join('\n');
      expect(said).toContain(
        `Parley failed to start: DATA_DIR ${env.DATA_DIR} is in use by \`parley import\``,
      );
      expect(said).toContain(`pid ${importing.pid}`);
      expect(said).toContain('Wait for that command to end');
      // A message for a person, not a stack trace.
      expect(said).not.toMatch(/^\s+at /m);
    } finally {
      importing.child.stdin!.end();
    }
    // An empty input is refused ("the file is empty"); the command ends and the store is free again.
    await importing.exited;
    const listed = await runNode(['src/cli.ts', 'project', 'list'], { env });
    expect(listed.code, listed.stderr).toBe(0);
  });

  it('lets the next server start at once after the holder was killed with SIGKILL', async () => {
    const env = { DATA_DIR: dataDir() };
    const first = await startServerProcess(env);
    servers.push(first);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // The lock file still names the dead server; the kernel released its lock with it.
    expect(lockHolder(env.DATA_DIR).pid).toBe(first.pid);

    const next = await startServerProcess(env);
    servers.push(next);
    expect(lockHolder(env.DATA_DIR).pid).toBe(next.pid);
    expect(await next.stop('SIGTERM')).toBe(0);
  });

  it('takes the lock of a killed holder on the first try, without waiting', async () => {
    const dir = dataDir();
    // A bare process that takes the lock and then hangs, killed with SIGKILL while it holds it.
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { lockDataDir } = await import(${JSON.stringify(new URL('../../src/db/data-dir-lock.ts', import.meta.url).href)});
         lockDataDir(${JSON.stringify(dir)}, { kind: 'command', command: 'held' });
         process.stdout.write('locked\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(holder.stdout!, 'data');
      expect(() => lockDataDir(dir, { kind: 'command', command: 'test' })).toThrow(DataDirInUseError);
    } finally {
      holder.kill('SIGKILL');
    }
    await once(holder, 'exit');
    // No retry and no staleness period: the one non-blocking attempt succeeds.
    const lock = lockDataDir(dir, { kind: 'command', command: 'test' });
    lock.release();
  });
});
