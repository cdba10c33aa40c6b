import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';

// What counting writes for the plan quota (D44) costs. Concurrent writers of
// one project create dialogues through the HTTP layer (inject); the floor is the same writes
// with no write guard at all. Medians of `rounds` rounds, scenarios interleaved in each round.

const ADMIN = 'bench-admin-token-0123456789';

export interface QuotaRow {
  scenario: string;
  writesPerSecond: number;
  note: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchQuota(
  store: { databaseUrl?: string },
  { writers = 20, writes = 600, rounds = 3 } = {},
): Promise<QuotaRow[]> {
  const database = await openDatabase({
    databaseUrl: store.databaseUrl,
    dataDir: 'memory://',
    poolMax: writers,
  });
  await runMigrations(database);
  const config = configFrom({
    ADMIN_TOKEN: ADMIN,
    EMBEDDINGS: 'none',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
  });
  const app = await buildApp({ config, database });
  const guards = [...app.writeGuards];
  try {
    const keyFor = async (settings: object) => {
      const created = await app.inject({
        method: 'POST',
        url: '/admin/v1/projects',
        headers: { authorization: `Bearer ${ADMIN}` },
        payload: { name: 'bench', settings },
      });
      return (created.json() as { apiKey: string }).apiKey;
    };
    const scenarios = [
      { scenario: 'no write guard (floor)', note: 'nothing counted', key: await keyFor({}), guarded: false },
      {
        scenario: 'counted, no quota',
        note: 'one random shard row incremented',
        key: await keyFor({}),
        guarded: true,
      },
      {
        scenario: 'quota 1,000,000,000',
        note: 'claim within a shard share',
        key: await keyFor({ monthlyWriteQuota: 1_000_000_000 }),
        guarded: true,
      },
    ];
    const results = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const { scenario, key, guarded } of scenarios) {
        app.writeGuards.splice(0, app.writeGuards.length, ...(guarded ? guards : []));
        let left = writes;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: writers }, async () => {
            while (left-- > 0) {
              const response = await app.inject({
                method: 'POST',
                url: '/api/v1/dialogue',
                headers: { authorization: `Bearer ${key}` },
                payload: {},
              });
              if (response.statusCode !== 201)
                throw new Error(`${scenario}: ${response.statusCode} ${response.body}`);
            }
          }),
        );
        const rate = writes / ((performance.now() - started) / 1000);
        results.set(scenario, [...(results.get(scenario) ?? []), rate]);
      }
    }
    return scenarios.map(({ scenario, note }) => ({
      scenario,
      writesPerSecond: median(results.get(scenario)!),
      note,
    }));
  } finally {
    app.writeGuards.splice(0, app.writeGuards.length, ...guards);
    await app.close();
    await database.close();
  }
}

export function formatQuotaRows(title: string, rows: QuotaRow[]): string {
  const lines = rows.map((row) => `| ${row.scenario} | ${row.writesPerSecond.toFixed(0)} | ${row.note} |`);
  return [`### ${title}`, '', '| Scenario | Writes/s | Note |', '|---|---|---|', ...lines].join('\n');
}
