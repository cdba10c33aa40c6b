import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerUrl } from '../helpers/database.js';
import {
  type RunningServer,
  SPAWNING_TEST_TIMEOUT_MS,
  runNode,
  spawnServerProcess,
} from '../helpers/processes.js';

// A DATABASE_URL naming a database its server does not have (3D000) ends the start at once with
// the command that creates it: no DATABASE_WAIT_MS of retries, no stack trace.

const serverUrl = testServerUrl() ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function serverAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const missingUrl = () => {
  const url = new URL(serverUrl);
  url.pathname = `/parley_missing_${randomBytes(6).toString('hex')}`;
  return url;
};

const started: RunningServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop('SIGKILL');
});

describe.runIf(await serverAnswers())('a database that does not exist', () => {
  it(
    'stops the server at once with the createdb command, even with a long DATABASE_WAIT_MS',
    async () => {
      const url = missingUrl();
      const name = url.pathname.slice(1);
      const begun = Date.now();
      const server = await spawnServerProcess({ DATABASE_URL: url.toString(), DATABASE_WAIT_MS: '600000' });
      started.push(server);
      expect(await server.exited).toEqual({ code: 1, signal: null });
      // Well under one retry round: nothing was waited for.
      expect(Date.now() - begun).toBeLessThan(60_000);
      const output = server.lines().join('\n');
      expect(output).not.toContain('database not reachable yet');
      expect(output).toContain(`Parley failed to start: the database "${name}" does not exist`);
      const user = decodeURIComponent(url.username);
      expect(output).toContain(
        `createdb -h ${url.hostname} -p ${url.port || '5432'}${user ? ` -U ${user}` : ''} ${name}`,
      );
      expect(output).toContain(`CREATE DATABASE "${name}";`);
      // A message for a person: no stack trace.
      expect(output).not.toMatch(/\n\s+at /);
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );

  it(
    'makes `parley migrate` say the same',
    async () => {
      const url = missingUrl();
      const result = await runNode(['src/cli.ts', 'migrate'], { env: { DATABASE_URL: url.toString() } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the database "${url.pathname.slice(1)}" does not exist`);
      expect(result.stderr).toContain('createdb ');
    },
    SPAWNING_TEST_TIMEOUT_MS,
  );
});
