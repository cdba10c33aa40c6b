import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import {
  type OpenAiSummarizerOptions,
  createOpenAiSummarizer,
  defaultTokenLimitParameter,
  systemPrompt,
} from '../../src/summarizers/openai.js';
import type { SummaryMessage } from '../../src/summarizers/summarizer.js';
import { countTokens } from '../../src/lib/tokens.js';
import { type FakeOpenAi, fakeSummary, startFakeOpenAi } from '../helpers/fake-openai.js';
import { type FixtureMessage, loadConversation, longConversation } from '../fixtures/conversations.js';

const asInput = (messages: FixtureMessage[]): SummaryMessage[] =>
  messages.map((message, i) => ({
    id: `m${i}`,
    role: message.role,
    name: message.name ?? null,
    text: message.content,
  }));

let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

function summarizer(overrides: Partial<OpenAiSummarizerOptions> = {}) {
  return createOpenAiSummarizer({
    model: 'gpt-test-mini',
    apiKey: fake.apiKey,
    baseURL: fake.baseURL,
    maxSummaryTokens: 300,
    callTokens: 8192,
    timeoutMs: 5_000,
    retries: 2,
    retryBaseDelayMs: 5,
    ...overrides,
  });
}

const section = (content: string, tag: string) =>
  new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(content)?.[1] ?? '';
const userContent = (i: number) => fake.requests[i]!.body.messages.find((m) => m.role === 'user')!.content;
const requestTokens = (i: number) => {
  const { body } = fake.requests[i]!;
  return body.messages.reduce((sum, m) => sum + countTokens(m.content), 0) + 12 + (body.max_tokens ?? 0);
};

describe('openai summarizer', () => {
  it('sends one chat-completions request with the conversation and returns the model summary', async () => {
    const messages = asInput(loadConversation('support-refund').messages);
    const s = summarizer();
    const summary = await s.summarize({ previous: null, messages });
    expect(s.model).toBe('gpt-test-mini');
    expect(fake.requests).toHaveLength(1);
    const { headers, body } = fake.requests[0]!;
    expect(headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(headers['content-type']).toContain('application/json');
    expect(body.model).toBe('gpt-test-mini');
    expect(body.max_tokens).toBe(300);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const system = body.messages[0]!.content;
    expect(system).toBe(systemPrompt(300));
    for (const word of ['fact', 'decision', 'open question', 'names', 'number'])
      expect(system).toContain(word);
    const lines = section(userContent(0), 'new_messages').split('\n');
    expect(lines).toHaveLength(messages.length);
    expect(lines[1]).toBe(`Jonas Weber (user): ${messages[1]!.text}`);
    expect(lines[2]!.startsWith('assistant: I’m sorry') || lines[2]!.startsWith("assistant: I'm sorry")).toBe(
      true,
    );
    expect(summary).toBe(fakeSummary(userContent(0), 1));
    expect(summary).toMatch(/^Part 1: 24 messages, starting "system: You are the support assistant of/);
  });

  it('rolls a long dialogue through chunks, each call within the token budget', async () => {
    const messages = asInput(longConversation(500));
    const callTokens = 2048;
    const summary = await summarizer({ callTokens, maxSummaryTokens: 256 }).summarize({
      previous: null,
      messages,
    });
    expect(fake.requests.length).toBeGreaterThan(5);
    const sent: string[] = [];
    for (let i = 0; i < fake.requests.length; i++) {
      expect(requestTokens(i)).toBeLessThanOrEqual(callTokens);
      sent.push(...section(userContent(i), 'new_messages').split('\n'));
      // Each call carries the summary the previous call returned.
      const soFar = section(userContent(i), 'summary_so_far');
      if (i === 0) expect(soFar).toMatch(/^\(none yet/);
      else expect(soFar).toBe(fake.answers[i - 1]);
    }
    // Every message went to the model exactly once, in order.
    expect(sent).toEqual(messages.map((m) => `${m.name ? `${m.name} (${m.role})` : m.role}: ${m.text}`));
    expect(countTokens(summary)).toBeLessThanOrEqual(256);
    expect(summary).toBe(fake.answers.at(-1));
  });

  it('splits one message longer than a call into pieces', async () => {
    const huge = Array.from({ length: 3000 }, (_, i) => `line ${i} of the log`).join('\n');
    await summarizer({ callTokens: 2048, maxSummaryTokens: 256 }).summarize({
      previous: null,
      messages: [{ id: 'm1', role: 'user', name: null, text: huge }],
    });
    expect(fake.requests.length).toBeGreaterThan(5);
    for (let i = 0; i < fake.requests.length; i++) expect(requestTokens(i)).toBeLessThanOrEqual(2048);
    const pieces = fake.requests.flatMap((_, i) => section(userContent(i), 'new_messages').split('\n'));
    expect(pieces.every((piece) => piece.startsWith('user: '))).toBe(true);
    expect(pieces.map((piece) => piece.slice('user: '.length)).join(' ')).toBe(huge.replace(/\n/g, ' '));
  });

  it('compacts incrementally: the previous summary and only the newer messages are sent', async () => {
    const messages = asInput(loadConversation('trip-planning').messages);
    const previous = 'Carla and Maria travel to Lisbon from 12 to 19 May with a budget of 2,400 euros.';
    await summarizer().summarize({ previous, messages: messages.slice(15) });
    expect(fake.requests).toHaveLength(1);
    expect(section(userContent(0), 'summary_so_far')).toBe(previous);
    expect(section(userContent(0), 'new_messages').split('\n')).toHaveLength(messages.length - 15);
    expect(userContent(0)).not.toContain(messages[0]!.text);
  });

  it('rolls in a previous summary longer than the budget as conversation text', async () => {
    const previous = Array.from({ length: 200 }, (_, i) => `Fact ${i}: item ${i} costs ${i * 3} euros.`).join(
      ' ',
    );
    await summarizer({ maxSummaryTokens: 200 }).summarize({
      previous,
      messages: [{ id: 'm1', role: 'user', name: null, text: 'And one more thing.' }],
    });
    expect(section(userContent(0), 'summary_so_far')).toMatch(/^\(none yet/);
    expect(section(userContent(0), 'new_messages')).toContain(
      'earlier summary: Fact 0: item 0 costs 0 euros.',
    );
  });

  it('retries transient failures and then succeeds', async () => {
    fake.plan.push(
      { kind: 'fail', status: 500 },
      { kind: 'fail', status: 429, message: 'Rate limit reached' },
    );
    const summary = await summarizer().summarize({
      previous: null,
      messages: asInput(loadConversation('debugging-postgres').messages),
    });
    expect(fake.requests).toHaveLength(3);
    expect(summary).toContain('Part 3:');
  });

  it('fails with UPSTREAM_ERROR when the endpoint keeps failing, naming no address or key', async () => {
    fake.plan.push(...Array.from({ length: 3 }, () => ({ kind: 'fail' as const, status: 503 })));
    const error = await summarizer()
      .summarize({ previous: null, messages: asInput(loadConversation('debugging-postgres').messages) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });
    expect((error as AppError).message).toBe('The summary model gpt-test-mini failed with HTTP 503');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a request the endpoint refuses (wrong key)', async () => {
    const error = await summarizer({ apiKey: 'sk-wrong' })
      .summarize({ previous: null, messages: asInput(loadConversation('trip-planning').messages) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'The summary model gpt-test-mini failed with HTTP 401',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after the timeout with UPSTREAM_TIMEOUT, and retries a timeout when allowed', async () => {
    fake.plan.push({ kind: 'hang' });
    const messages = asInput(loadConversation('trip-planning').messages);
    const error = await summarizer({ timeoutMs: 300, retries: 0 })
      .summarize({ previous: null, messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', status: 504 });
    expect(fake.requests).toHaveLength(1);

    fake.plan.push({ kind: 'hang' });
    const summary = await summarizer({ timeoutMs: 300, retries: 1 }).summarize({ previous: null, messages });
    expect(fake.requests).toHaveLength(3);
    expect(summary).toContain('Part 3:');
  });

  it('fails with UPSTREAM_ERROR when the endpoint is not reachable or answers no text', async () => {
    const closed = await startFakeOpenAi();
    await closed.close();
    const unreachable = await summarizer({ baseURL: closed.baseURL, retries: 1 })
      .summarize({ previous: null, messages: asInput(loadConversation('trip-planning').messages) })
      .catch((e: unknown) => e);
    expect(unreachable).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'The summary model gpt-test-mini could not be reached',
    });

    fake.plan.push({ kind: 'reply', content: '   ' });
    const empty = await summarizer()
      .summarize({ previous: null, messages: asInput(loadConversation('trip-planning').messages) })
      .catch((e: unknown) => e);
    expect(empty).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'The summary model gpt-test-mini returned no summary',
    });
  });

  it('refuses a call budget too small for the summary and a chunk', () => {
    expect(() => summarizer({ callTokens: 1000, maxSummaryTokens: 400 })).toThrow(/SUMMARY_CALL_TOKENS/);
  });
});

describe('openai summarizer: the length limit under either name', () => {
  const messages = () => asInput(loadConversation('trip-planning').messages);
  const limitsSent = () =>
    fake.requests.map(({ body }) =>
      body.max_completion_tokens !== undefined
        ? 'max_completion_tokens'
        : body.max_tokens !== undefined
          ? 'max_tokens'
          : 'none',
    );

  it('switches to max_completion_tokens when the model refuses max_tokens, once for the summarizer', async () => {
    fake.refuse.push({ field: 'max_tokens' });
    const s = summarizer();
    const first = await s.summarize({ previous: null, messages: messages() });
    expect(first).toMatch(/^Part 1: /);
    // The refused request, then the same request with the other name and the same budget.
    expect(limitsSent()).toEqual(['max_tokens', 'max_completion_tokens']);
    expect(fake.requests[1]!.body.max_completion_tokens).toBe(300);
    expect(fake.requests[1]!.body.messages).toEqual(fake.requests[0]!.body.messages);
    // The choice is remembered: later calls go out in the accepted form at once.
    await s.summarize({ previous: first, messages: messages() });
    expect(limitsSent()).toEqual(['max_tokens', 'max_completion_tokens', 'max_completion_tokens']);
  });

  it('also leaves out a temperature the model refuses (reasoning models take only the default)', async () => {
    fake.refuse.push({ field: 'max_tokens' }, { field: 'temperature' });
    const s = summarizer();
    expect(await s.summarize({ previous: null, messages: messages() })).toMatch(/^Part 1: /);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.body).not.toHaveProperty('temperature');
    expect(fake.requests[2]!.body).not.toHaveProperty('max_tokens');
    await s.summarize({ previous: null, messages: messages() });
    expect(fake.requests).toHaveLength(4);
  });

  it('falls back to max_tokens on a server that does not know max_completion_tokens', async () => {
    fake.refuse.push({ field: 'max_completion_tokens', said: 'message' });
    const s = summarizer({ tokenLimitParameter: 'max_completion_tokens' });
    await s.summarize({ previous: null, messages: messages() });
    await s.summarize({ previous: null, messages: messages() });
    expect(limitsSent()).toEqual(['max_completion_tokens', 'max_tokens', 'max_tokens']);
  });

  it('starts with max_completion_tokens on OpenAI itself, max_tokens on other endpoints', async () => {
    expect(defaultTokenLimitParameter(undefined)).toBe('max_completion_tokens');
    expect(defaultTokenLimitParameter('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(defaultTokenLimitParameter('http://localhost:11434/v1')).toBe('max_tokens');
    await summarizer().summarize({ previous: null, messages: messages() });
    expect(limitsSent()).toEqual(['max_tokens']);
  });

  it('fails like any refused request when the server refuses both names, without retrying further', async () => {
    fake.refuse.push({ field: 'max_tokens' }, { field: 'max_completion_tokens' });
    const error = await summarizer()
      .summarize({ previous: null, messages: messages() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: 'The summary model gpt-test-mini failed with HTTP 400',
    });
    expect(limitsSent()).toEqual(['max_tokens', 'max_completion_tokens']);
  });

  it('does not take another 400 for a refused field', async () => {
    fake.plan.push({ kind: 'fail', status: 400, message: "Invalid 'messages': too long" });
    const error = await summarizer()
      .summarize({ previous: null, messages: messages() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(fake.requests).toHaveLength(1);
  });
});
