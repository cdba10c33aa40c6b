// `npm run test:container`: the whole suite on a throwaway Postgres with pgvector started by
// testcontainers. Without a container runtime (as on this project's CI machines) it says so and
// exits 0 without running anything: `npm run test:pg` covers real Postgres there.
import { spawnSync } from 'node:child_process';
import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { getContainerRuntimeClient } from 'testcontainers';

try {
  await getContainerRuntimeClient();
} catch (error) {
  console.log(`test:container skipped: no container runtime (${(error as Error).message.split('\n')[0]})`);
  process.exit(0);
}

const container = await new PostgreSqlContainer('pgvector/pgvector:pg16').start();
try {
  const result = spawnSync('npx', ['vitest', 'run'], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: container.getConnectionUri() },
  });
  process.exitCode = result.status ?? 1;
} finally {
  await container.stop();
}
