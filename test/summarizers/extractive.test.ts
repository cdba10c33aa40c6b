import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer, splitSentences, termsOf } from '../../src/summarizers/extractive.js';
import { type SummaryMessage, speakerOf } from '../../src/summarizers/summarizer.js';
import { countTokens } from '../../src/lib/tokens.js';
import {
  type FixtureMessage,
  conversationNames,
  loadConversation,
  longConversation,
} from '../fixtures/conversations.js';

const asInput = (messages: FixtureMessage[], from = 0): SummaryMessage[] =>
  messages.map((message, i) => ({
    id: `m${from + i}`,
    role: message.role,
    name: message.name ?? null,
    text: message.content,
  }));

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Checks that every line of a summary is `speaker: sentences` where the sentences are taken word
 * for word from one message of that speaker, and that lines and sentences follow the
 * conversation's order. Returns the index of the message behind each line.
 */
function traceToSource(summary: string, messages: SummaryMessage[]): number[] {
  const sources: number[] = [];
  let position = { message: 0, offset: 0 };
  for (const line of summary.split('\n')) {
    let found = false;
    for (let m = position.message; m < messages.length && !found; m++) {
      const message = messages[m]!;
      const prefix = `${speakerOf(message)}: `;
      if (!line.startsWith(prefix)) continue;
      const text = normalize(message.text);
      let offset = m === position.message ? position.offset : 0;
      const pieces = line.slice(prefix.length).split(' … ');
      const ok = pieces.every((piece) => {
        const at = text.indexOf(piece, offset);
        if (at < 0) return false;
        offset = at + piece.length;
        return true;
      });
      if (ok) {
        found = true;
        sources.push(m);
        position = { message: m + 1, offset: 0 };
      }
    }
    if (!found) throw new Error(`summary line not found in order in the conversation: ${line}`);
  }
  return sources;
}

describe('extractive summarizer', () => {
  it.each(conversationNames)('keeps the budget, the order and the words of %s', async (name) => {
    const messages = asInput(loadConversation(name).messages);
    for (const budget of [60, 150, 400]) {
      const summary = await createExtractiveSummarizer({ maxSummaryTokens: budget }).summarize({
        previous: null,
        messages,
      });
      expect(summary.length).toBeGreaterThan(0);
      expect(countTokens(summary)).toBeLessThanOrEqual(budget);
      traceToSource(summary, messages);
    }
  });

  it('keeps the facts of a conversation rather than its first messages', async () => {
    const messages = asInput(loadConversation('support-refund').messages);
    const summary = await createExtractiveSummarizer({ maxSummaryTokens: 200 }).summarize({
      previous: null,
      messages,
    });
    const sources = traceToSource(summary, messages);
    // Not "the first N messages": lines come from all over the conversation.
    expect(Math.max(...sources)).toBeGreaterThan(messages.length / 2);
    expect(new Set(sources).size).toBe(sources.length);
    // The order number, the replacement order and the pickup date are the facts to keep.
    expect(summary).toContain('A-20417');
    expect(summary).toContain('R-88213');
    expect(summary).toContain('13 March');
    // Filler is never chosen.
    expect(summary).not.toMatch(/Bye!|Sounds good/);
  });

  it('summarizes a 500-message dialogue within the budget', async () => {
    const messages = asInput(longConversation(500));
    expect(messages).toHaveLength(500);
    const summary = await createExtractiveSummarizer({ maxSummaryTokens: 512 }).summarize({
      previous: null,
      messages,
    });
    expect(countTokens(summary)).toBeLessThanOrEqual(512);
    expect(countTokens(summary)).toBeGreaterThan(400);
    const sources = traceToSource(summary, messages);
    expect(Math.max(...sources)).toBeGreaterThan(250);
  });

  it('keeps a sentence said twice only once', async () => {
    const repeated =
      'The deployment to Frankfurt moves to Tuesday 4 June because the load balancer is replaced.';
    const messages = asInput([
      { role: 'user', content: repeated },
      {
        role: 'assistant',
        content: 'Understood, I will tell the database team about the new window on 4 June.',
      },
      { role: 'user', content: repeated },
    ]);
    const summary = await createExtractiveSummarizer({ maxSummaryTokens: 200 }).summarize({
      previous: null,
      messages,
    });
    expect(summary.split(repeated)).toHaveLength(2);
  });

  it('compacts incrementally: previous summary plus the new messages, within the budget', async () => {
    const all = asInput(loadConversation('debugging-postgres').messages);
    const summarizer = createExtractiveSummarizer({ maxSummaryTokens: 150 });
    const first = await summarizer.summarize({ previous: null, messages: all.slice(0, 10) });
    const second = await summarizer.summarize({ previous: first, messages: all.slice(10) });
    expect(countTokens(second)).toBeLessThanOrEqual(150);
    // Lines of the earlier summary come first, then lines from the new messages, all word for word.
    const sources = traceToSource(second, all);
    expect(Math.min(...sources)).toBeLessThan(10);
    expect(Math.max(...sources)).toBeGreaterThanOrEqual(10);
    for (const line of second.split('\n')) {
      if (traceToSource(line, all)[0]! < 10) expect(first.includes(line) || isPartOf(line, first)).toBe(true);
    }
  });

  it('summarizes a previous summary alone, and answers nothing for nothing', async () => {
    const summarizer = createExtractiveSummarizer({ maxSummaryTokens: 100 });
    expect(await summarizer.summarize({ previous: null, messages: [] })).toBe('');
    const previous =
      'user: The budget is 2,400 euros. … Maria is vegetarian.\nassistant: Sintra is on 14 May.';
    const again = await summarizer.summarize({ previous, messages: [] });
    expect(again).toBe(previous);
  });

  it('cuts an overlong sentence into pieces of whole words', async () => {
    const log = Array.from({ length: 300 }, (_, i) => `frame${i}`).join(' ');
    const pieces = splitSentences(log);
    expect(pieces.length).toBe(5);
    expect(pieces.join(' ')).toBe(log);
    const summary = await createExtractiveSummarizer({ maxSummaryTokens: 120 }).summarize({
      previous: null,
      messages: asInput([{ role: 'user', content: `Stack trace: ${log}` }]),
    });
    expect(countTokens(summary)).toBeLessThanOrEqual(120);
  });

  it('finds content words in any script', () => {
    expect([...termsOf("The orders' pool holds 20 connections").keys()]).toEqual([
      'order',
      'pool',
      'hold',
      '20',
      'connection',
    ]);
    expect(termsOf('東京の会議').size).toBeGreaterThan(1);
  });
});

/** A line of the new summary that is a shortened line of the old one (sentences dropped). */
function isPartOf(line: string, summary: string): boolean {
  const [speaker] = line.split(': ', 1);
  return summary.split('\n').some(
    (old) =>
      old.startsWith(`${speaker}: `) &&
      line
        .slice(speaker!.length + 2)
        .split(' … ')
        .every((piece) => old.includes(piece)),
  );
}
