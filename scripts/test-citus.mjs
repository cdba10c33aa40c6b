#!/usr/bin/env node
// `npm run test:citus`: the whole test suite on a Citus coordinator, then the tests that only a
// cluster can run (test/citus: every hot statement routed to one shard, a third worker added and
// the shards rebalanced under a write load).
//
// Without CITUS_DATABASE_URL it starts a private cluster with scripts/citus-cluster.sh
// (coordinator on CITUS_BASE_PORT, default 5441, workers on the next two ports; run as root, the
// script switches to the postgres user) and stops it at the end. That needs PostgreSQL with Citus
// and pgvector installed on this machine; without them it says what to do and exits with 1
// rather than skipping, so that a run which tested nothing never looks like a pass. With CITUS_DATABASE_URL it uses
// that coordinator (its database must have citus; its workers are read from pg_dist_node) and
// the rebalance test, which needs to start a worker of its own, is skipped.
// Every test file makes a fresh database on the coordinator and registers it with the cluster
// (test/helpers/database.ts). Arguments are passed on to the suite's vitest run.
// The suite runs two test files at a time (vitest's default on two cores is one; each file has
// databases of its own): one file at a time kept only 64% of the 2-core machine busy, its time
// going to the round trips between the three nodes. With two, the whole suite took 18.5 minutes
// with `npm test` running beside it, where one at a time had taken about 40 in CI.
// CITUS_TEST_FILES_AT_ONCE changes it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = process.env.CITUS_CLUSTER_SCRIPT || join(root, 'scripts', 'citus-cluster.sh');
const basePort = process.env.CITUS_BASE_PORT || '5441';
const external = process.env.CITUS_DATABASE_URL;

/** What is missing on this machine for a private cluster, or undefined when nothing is. */
function missingForPrivateCluster() {
  const installs = '/usr/lib/postgresql';
  const majors = existsSync(installs)
    ? readdirSync(installs)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const major = majors.at(-1);
  if (major === undefined) return 'a PostgreSQL server installed under /usr/lib/postgresql (Debian layout)';
  const lib = join(installs, major, 'lib');
  const missing = ['citus', 'vector'].filter((name) => !existsSync(join(lib, `${name}.so`)));
  return missing.length === 0
    ? undefined
    : `the ${missing.join(' and ')} extension${missing.length > 1 ? 's' : ''} for PostgreSQL ${major}`;
}

if (!external) {
  const missing = missingForPrivateCluster();
  if (missing !== undefined) {
    console.error(`npm run test:citus needs a Citus cluster, and this machine lacks ${missing}.
Either:
  - install them (Debian, as root): scripts/install-pgvector.sh and scripts/install-citus.sh
    (the Citus build wants its source: CITUS_SOURCE_TARBALL=file, or internet access to GitHub), or
  - point the suite at a Citus coordinator you run yourself, for example Citus' Docker image
    with pgvector added (docs/scaling.md):  CITUS_DATABASE_URL=postgres://user@host:port/db npm run test:citus
Nothing was tested.`);
    process.exit(1);
  }
}

function run(command, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  console.log(
    `-- ${[command, ...args].join(' ')}: exit ${result.status} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return result.status ?? 1;
}

function cluster(...args) {
  const result = spawnSync(
    'bash',
    [script, ...args, ...(args[0] === 'up' || args[0] === 'down' ? [basePort] : [])],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (result.status !== 0) throw new Error(`citus-cluster.sh ${args.join(' ')} failed (${result.status})`);
  return result.stdout.trim();
}

let url = external;
if (!url) {
  // `up` is not re-entrant: a cluster left behind by an interrupted run goes first.
  cluster('down');
  url = cluster('up').split('\n').at(-1);
}
console.log(
  `Running against the Citus coordinator ${new URL(url).host} (a fresh distributed database per test file)`,
);
const env = {
  TEST_DATABASE_URL: url,
  ...(external ? {} : { CITUS_CLUSTER_SCRIPT: script, CITUS_BASE_PORT: basePort }),
};
let status = 1;
try {
  const filesAtOnce = process.env.CITUS_TEST_FILES_AT_ONCE || '2';
  const suite = run('npx', ['vitest', 'run', `--maxWorkers=${filesAtOnce}`, ...process.argv.slice(2)], env);
  const clusterOnly = run('npx', ['vitest', 'run', '--config', 'vitest.citus.config.ts'], env);
  status = suite || clusterOnly;
} finally {
  if (!external) cluster('down');
}
process.exit(status);
