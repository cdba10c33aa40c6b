import { afterEach, describe, expect, it } from 'vitest';
import { type EventUpkeep, startEventUpkeep } from '../../src/modules/events/upkeep.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';

// D63, D65: the upkeep loop runs the sweep for unnumbered events and the pruning of old ones each
// on its own period: pruning often does not make the sweep run more often than
// EVENTS_SWEEP_INTERVAL_MS (stream-instances.test.ts relies on that to leave NOTIFY the only
// wake-up of a stream).

let database: TestDatabase | undefined;
let upkeep: EventUpkeep | undefined;
afterEach(async () => {
  await upkeep?.stop();
  await database?.close();
  upkeep = database = undefined;
});

describe('event upkeep', () => {
  it('sweeps once per sweep interval however often it prunes', async () => {
    let prunes = 0;
    database = await createTestDatabase({
      queryLogger: {
        logQuery(query) {
          // The first statement of each pruning round: the projects with expired events.
          if (/SELECT project_id FROM event_sequences\s+WHERE EXISTS/.test(query)) prunes++;
        },
      },
    });
    let sweeps = 0;
    let clock = Date.now();
    upkeep = startEventUpkeep({
      db: database.handle.db,
      sequencer: {
        sweep: async () => {
          sweeps++;
        },
      },
      // One second of retention: pruning every second, the shortest period it has. The upkeep's
      // clock moves a second each time it is read, so every round is due to prune.
      retentionDays: 1 / 86_400,
      sweepIntervalMs: 86_400_000,
      now: () => (clock += 1_000),
    });
    await eventually(() => prunes >= 2, { what: 'two pruning rounds' });
    expect(sweeps).toBe(1);
  });
});
