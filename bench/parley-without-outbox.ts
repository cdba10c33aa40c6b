import { loadConfig } from '../src/config.js';
import { createEventOutbox } from '../src/modules/events/outbox.js';
import { startServer } from '../src/server.js';

// The events benchmark's baseline (bench/events.ts): Parley as `npm start` runs it, but writes
// record no events (neither through `record` nor in the append statement, which writes its events
// only with the ids `reserve` gives), so none are numbered after their commit either (the unit of
// work numbers only after a transaction that recorded some). The difference in throughput is what
// the feed costs.

await startServer(loadConfig(), {
  outbox: {
    ...createEventOutbox({ numberInWrite: false }),
    record: async () => {},
    reserve: () => undefined,
  },
});
