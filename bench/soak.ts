import { type Step, type Tally, closedLoop, rateOf } from './lib/closed-loop.js';
import { percentile, pick } from './lib/load.js';
import { startProbe } from './lib/processes.js';
import { startChatServer } from './lib/chat-server.js';
import type { StoreEnv } from './lib/seed.js';
import { metric, rssMb } from './lib/server-metrics.js';

// `npm run bench -- soak`: the mixed workload of a chat application, held for BENCH_SOAK_SECONDS
// (default 300). Eight connections each cycle through POST /message, a page of 20 messages and
// POST /search, with the local embedder on (every write is embedded in the background, every
// search embeds its query), and two event streams follow `message.created` throughout. Beside it,
// in the same run and with the same generator, each of the three requests alone for
// BENCH_SOAK_ALONE_SECONDS. Reports the rates, p50/p95/p99 per request in the mix and alone, the
// server's RSS every 10 s (it must stay flat) and whether both streams got every event.

const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const aloneSeconds = Number(process.env.BENCH_SOAK_ALONE_SECONDS ?? 20);
const CONNECTIONS = 8;
/** The mixed rate measured before this benchmark existed, on this 2-core machine. */
const EARLIER_MIXED_RATE = 90;

export async function benchSoak(store: StoreEnv, storeName: string): Promise<string> {
  const { seeded, server, api, headers, newText, queries } = await startChatServer(store);
  try {
    const steps: Step[] = [
      {
        name: 'POST /message',
        send: () =>
          fetch(`${api}/message`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              dialogueId: pick(seeded.writeDialogues),
              role: 'user',
              content: newText(),
            }),
          }),
      },
      {
        name: 'GET /messages (20)',
        send: () => fetch(`${api}/messages?dialogueId=${pick(seeded.writeDialogues)}&limit=20`, { headers }),
      },
      {
        name: 'POST /search',
        send: () =>
          fetch(`${api}/search`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: pick(queries), limit: 10 }),
          }),
      },
    ];

    const alone = new Map<string, Tally>();
    for (const step of steps) alone.set(step.name, await closedLoop(CONNECTIONS, aloneSeconds, [step]));

    const holder = await startProbe('bench/stream-holder.ts', {
      HOLD_API: api,
      HOLD_KEY: seeded.apiKey,
      HOLD_STREAMS: '2',
    });
    const createdBefore = await metric(
      server.baseUrl,
      'parley_events_written_total',
      '{type="message.created"}',
    );
    const rss: number[] = [await rssMb(server.baseUrl)];
    const sampling = setInterval(() => {
      rssMb(server.baseUrl).then(
        (mb) => rss.push(mb),
        () => {},
      );
    }, 10_000);
    const mixed = await closedLoop(CONNECTIONS, soakSeconds, steps);
    clearInterval(sampling);
    rss.push(await rssMb(server.baseUrl));
    const streams = (await holder.finish()) as { minEvents: number; maxEvents: number; outOfOrder: number };
    const created =
      (await metric(server.baseUrl, 'parley_events_written_total', '{type="message.created"}')) -
      createdBefore;

    const ms = (times: number[], p: number) => percentile(times, p).toFixed(1);
    const lines = [
      `### Mixed workload soak, ${storeName} (${CONNECTIONS} connections, ${soakSeconds} s, local embedder, 2 streams open)`,
      '',
      `Mixed: **${rateOf(mixed).toFixed(0)} requests/s** (${(rateOf(mixed) / EARLIER_MIXED_RATE).toFixed(1)}x the ${EARLIER_MIXED_RATE}/s measured before; target 3x), ` +
        `${mixed.errors} errors${mixed.firstError ? ` (first: ${mixed.firstError})` : ''}.`,
      '',
      '| request | in the mix: count, p50 / p95 / p99 ms | alone: req/s, p50 / p95 / p99 ms |',
      '|---|---|---|',
      ...steps.map(({ name }) => {
        const inMix = mixed.times.get(name)!;
        const solo = alone.get(name)!;
        const soloTimes = solo.times.get(name)!;
        return `| ${name} | ${inMix.length}, ${ms(inMix, 0.5)} / ${ms(inMix, 0.95)} / ${ms(inMix, 0.99)} | ${rateOf(solo).toFixed(0)}, ${ms(soloTimes, 0.5)} / ${ms(soloTimes, 0.95)} / ${ms(soloTimes, 0.99)} |`;
      }),
      '',
      `Search p99 in the mix: ${ms(mixed.times.get('POST /search')!, 0.99)} ms (target at most 100 ms).`,
      `Server RSS every 10 s: ${rss.map((mb) => mb.toFixed(0)).join(', ')} MB.`,
      `Streams: ${created} messages written during the soak; each of the 2 streams got ${streams.minEvents}-${streams.maxEvents} events, ` +
        `${streams.outOfOrder} out of order (${streams.minEvents === created && streams.maxEvents === created ? 'every event' : 'NOT every event'}).`,
    ];
    return lines.join('\n');
  } finally {
    await server.stop();
  }
}
