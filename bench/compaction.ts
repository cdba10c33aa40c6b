import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { countTokens } from '../src/lib/tokens.js';
import { longConversation } from '../test/fixtures/conversations.js';

// Compaction figures, offline (the extractive summarizer): `compact` and `continue` on a
// 500-message dialogue through the HTTP layer (inject), beside the floor every compaction pays:
// reading the dialogue's 500 messages through GET /messages. Medians of `runs` fresh dialogues.

const ADMIN = 'bench-admin-token-0123456789';

export interface CompactionRow {
  scenario: string;
  medianMs: number;
  note: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchCompaction(runs = 5, messagesPerDialogue = 500): Promise<CompactionRow[]> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await runMigrations(database);
  const config = configFrom({ ADMIN_TOKEN: ADMIN, EMBEDDINGS: 'none', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database });
  try {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/projects',
      headers: { authorization: `Bearer ${ADMIN}` },
      payload: { name: 'bench' },
    });
    const headers = { authorization: `Bearer ${(created.json() as { apiKey: string }).apiKey}` };
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
      const started = performance.now();
      const response = await app.inject({ method, url, headers, payload: payload as object });
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return { ms: performance.now() - started, body: response.json() as Record<string, unknown> };
    };
    const conversation = longConversation(messagesPerDialogue).map(({ role, name, content }) => ({
      role,
      content,
      ...(name ? { name } : {}),
    }));
    const timings = {
      read: [] as number[],
      compact: [] as number[],
      again: [] as number[],
      next: [] as number[],
    };
    const incremental: number[] = [];
    let summaryTokens = 0;
    for (let run = 0; run < runs; run++) {
      const { body } = await call('POST', '/api/v1/dialogue', {});
      const id = body.id as string;
      for (let start = 0; start < conversation.length; start += 100) {
        await call('POST', '/api/v1/messages', {
          dialogueId: id,
          messages: conversation.slice(start, start + 100),
        });
      }
      let readMs = 0;
      let next: string | null = `/api/v1/messages?dialogueId=${id}&limit=200`;
      while (next) {
        const page = await call('GET', next);
        readMs += page.ms;
        const cursor = page.body.next as string | null;
        next = cursor
          ? `/api/v1/messages?dialogueId=${id}&limit=200&next=${encodeURIComponent(cursor)}`
          : null;
      }
      timings.read.push(readMs);
      const compacted = await call('PUT', `/api/v1/dialogue/${id}/compact`);
      timings.compact.push(compacted.ms);
      summaryTokens = countTokens((compacted.body.summary as { text: string }).text);
      await call('POST', '/api/v1/messages', { dialogueId: id, messages: conversation.slice(0, 10) });
      incremental.push((await call('PUT', `/api/v1/dialogue/${id}/compact`)).ms);
      timings.again.push((await call('PUT', `/api/v1/dialogue/${id}/compact`)).ms);
      timings.next.push((await call('PUT', `/api/v1/dialogue/${id}/continue`)).ms);
    }
    const n = messagesPerDialogue;
    return [
      { scenario: `GET /messages, all ${n} (floor)`, medianMs: median(timings.read), note: '3 pages of 200' },
      {
        scenario: `compact, ${n} messages`,
        medianMs: median(timings.compact),
        note: `summary ${summaryTokens} tokens (budget ${config.SUMMARY_MAX_TOKENS})`,
      },
      { scenario: 'compact, 10 new messages', medianMs: median(incremental), note: 'incremental' },
      { scenario: 'compact, nothing new', medianMs: median(timings.again), note: 'no summarizer call' },
      {
        scenario: `continue, ${n + 10} messages`,
        medianMs: median(timings.next),
        note: 'summary up to date',
      },
    ];
  } finally {
    await app.close();
    await database.close();
  }
}

export function formatCompactionRows(title: string, rows: CompactionRow[]): string {
  const lines = rows.map((row) => `| ${row.scenario} | ${row.medianMs.toFixed(1)} ms | ${row.note} |`);
  return [`### ${title}`, '', '| Scenario | Median | Note |', '|---|---|---|', ...lines].join('\n');
}
