import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { untilEmbedded } from '../helpers/embedding-queue.js';
import { eventually } from '../helpers/eventually.js';
import { launchChromium, screenshot, seriousAccessibilityProblems } from './browser.js';

// The console in a real browser (Debian's Chromium), against a Parley listening on a port with the
// offline embedder, as `npm start` runs it. Every page is checked by axe-core and photographed.

let ctx: TestContext;
let project: TestProject;
let base: string;
let browser: Browser;
let context: BrowserContext;
/** Requests the pages made to any other origin than Parley's (the console runs offline). */
const foreignRequests: string[] = [];
/** Dialog boxes a page opened (a hostile message that ran would open one). */
const dialogs: string[] = [];

type Json = Record<string, unknown>;
const api = (options: Parameters<ReturnType<typeof asProject>>[0]) => asProject(ctx.app, project)(options);

async function createDialogue(body: Json): Promise<{ id: string; messages: { id: string }[] }> {
  const response = await api({ method: 'POST', url: '/api/v1/dialogue', payload: body });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json();
}

async function addMessage(dialogueId: string, content: unknown, role = 'user'): Promise<{ id: string }> {
  const response = await api({
    method: 'POST',
    url: '/api/v1/message',
    payload: { dialogueId, role, content },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json();
}

/** A new tab, signed in (sessionStorage is per tab), on `path` below /console. */
async function signedIn(path: string, credentials: { adminToken?: string } = {}): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/console${path}`);
  await page.getByLabel('API key').fill(project.apiKey);
  if (credentials.adminToken) await page.getByLabel('Admin token').fill(credentials.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

/** axe-core finds no serious or critical problem on the page; its screenshot is saved. */
async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousAccessibilityProblems(page), name).toEqual([]);
}

/** Open event streams on the server: a page's live updates are connected once it grows. */
const openStreams = () => ctx.app.services.eventHub.size;

beforeAll(async () => {
  // The background erasure and the retention sweep are left to the tests (an hour, a day): an
  // erasure's page is seen pending, then completed when the test runs it; a preview's counts stay.
  ctx = await createTestContext({
    EMBEDDINGS: 'local',
    ERASURE_POLL_MS: '3600000',
    RETENTION_SWEEP_INTERVAL_MS: '86400000',
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  project = await createProject(ctx.app);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.on('request', (request) => {
    if (!request.url().startsWith(`${base}/`)) foreignRequests.push(request.url());
  });
  context.on('page', (page) => page.on('dialog', (dialog) => dialogs.push(dialog.message())));
});

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

afterEach(async () => {
  for (const page of context.pages()) await page.close();
  // The next test counts the streams its page opens: the server has seen these pages go.
  await eventually(() => openStreams() === 0, { what: 'the closed pages’ event streams to end' });
  expect(foreignRequests).toEqual([]);
  expect(dialogs).toEqual([]);
});

describe('the console', () => {
  it('is served with a strict Content-Security-Policy', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${base}/console/dialogues`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    await checkPage(page, 'sign-in');
  });

  it('signs in with a key kept in sessionStorage only, shows a wrong key’s error, and signs out', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/console/dialogues`);
    // By keyboard alone.
    await page.getByLabel('API key').focus();
    await page.keyboard.type('prly_not-a-real-key-000000000000');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('UNAUTHORIZED');
    await page.getByLabel('API key').fill(project.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Dialogues' }).waitFor();
    expect(page.url()).toBe(`${base}/console/dialogues`);
    const stored = await page.evaluate(() => ({
      session: JSON.stringify(window.sessionStorage),
      local: window.localStorage.length,
      cookies: document.cookie,
    }));
    expect(stored.session).toContain(project.apiKey);
    expect(stored.local).toBe(0);
    expect(stored.cookies).toBe('');
    expect((await context.cookies()).length).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => window.sessionStorage.length)).toBe(0);
  });

  it('lists a dialogue created through the API, linked to its page, and keeps filters in the address', async () => {
    const dialogue = await createDialogue({
      label: 'Support chat with Ada',
      tags: ['support', 'vip'],
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const page = await signedIn('/dialogues?tag=vip');
    const link = page.getByRole('link', { name: dialogue.id });
    await link.waitFor();
    const row = page.getByRole('row').filter({ has: link });
    expect(await row.textContent()).toContain('Support chat with Ada');
    await checkPage(page, 'dialogues');
    await link.click();
    await page.getByRole('heading', { name: `Dialogue ${dialogue.id}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/dialogues/${dialogue.id}`);
  });

  it('shows every message of a dialogue, older ones by cursor, with a raw view equal to the API’s bytes', async () => {
    const blocks = [
      { type: 'text', text: 'What is the weather?' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
    ];
    const dialogue = await createDialogue({ label: 'Long', metadata: { channel: 'web' } });
    const texts = Array.from({ length: 130 }, (_, i) => `message number ${i}`);
    for (let start = 0; start < texts.length; start += 100) {
      const response = await api({
        method: 'POST',
        url: '/api/v1/messages',
        payload: {
          dialogueId: dialogue.id,
          messages: texts.slice(start, start + 100).map((content) => ({ role: 'assistant', content })),
        },
      });
      expect(response.statusCode).toBe(201);
    }
    const withBlocks = await addMessage(dialogue.id, blocks);
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    const list = page.getByRole('list', { name: 'Messages' });
    await expect.poll(() => list.getAttribute('data-count')).toBe('100');
    // Older pages by cursor: through the button, or by the pane itself when it is scrolled near its
    // top (D131), which may take the last page first; the button is then gone before its click.
    const older = page.getByRole('button', { name: 'Load older messages' });
    await expect
      .poll(
        async () => {
          if (await older.isVisible()) await older.click({ timeout: 2_000 }).catch(() => undefined);
          return list.getAttribute('data-count');
        },
        { timeout: 60_000 },
      )
      .toBe('131');
    expect(await older.count()).toBe(0);
    // D130: the pane holds the messages in and near its view; scrolled from top to bottom, it
    // shows every one of them, in order, each saying its place in the dialogue.
    const shown = await page.locator('.message-pane').evaluate(async (pane) => {
      const seen = new Map<number, string>();
      const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      for (let top = 0; ; top += pane.clientHeight / 2) {
        pane.scrollTop = top;
        await frame();
        for (const item of pane.querySelectorAll('li.message')) {
          seen.set(
            Number(item.getAttribute('aria-posinset')),
            item.querySelector('.content')?.textContent ?? '',
          );
        }
        if (pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 1) break;
      }
      return [...seen.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
    });
    expect(shown.slice(0, 130)).toEqual(texts);
    expect(shown.length).toBe(131);
    // Content blocks by type: the text as text, the tool call's input as JSON.
    const last = page.locator(`li.message[id="${withBlocks.id}"]`);
    expect(await last.locator('.block-text').textContent()).toBe('What is the weather?');
    expect(await last.locator('.block-tool-call code').textContent()).toBe('get_weather');
    expect(await last.locator('.block-tool-call pre').textContent()).toBe(
      JSON.stringify({ city: 'Oslo' }, null, 2),
    );

    await last.getByRole('button', { name: 'Raw' }).click();
    const raw = await last.locator('pre.raw').textContent();
    const answer = await api({
      method: 'GET',
      url: `/api/v1/message/${withBlocks.id}?dialogueId=${dialogue.id}`,
    });
    expect(raw).toBe(answer.body);
    await checkPage(page, 'dialogue');

    // Down to 400 px wide, nothing is cut off sideways.
    await page.setViewportSize({ width: 400, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await checkPage(page, 'dialogue-400px');
  });

  it('shows a hostile message as characters and runs nothing', async () => {
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const dialogue = await createDialogue({
      label: '<b>bold?</b>',
      messages: [{ role: 'user', content: hostile }],
    });
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    const content = page.locator('li.message .content');
    await expect.poll(() => content.textContent()).toBe(hostile);
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
  });

  it('shows huge content cut, with all of it on demand', async () => {
    const huge = 'y'.repeat(1024 * 1024);
    const dialogue = await createDialogue({ messages: [{ role: 'user', content: huge }] });
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    const show = page.getByRole('button', { name: /Show all \(1,048,576 characters\)/ });
    await show.waitFor();
    expect((await page.locator('li.message .content').textContent())?.length).toBeLessThan(3000);
    await show.click();
    expect((await page.locator('li.message .content').textContent())?.length).toBe(huge.length);
  });

  it('shows a message added through the API live on an open dialogue page', async () => {
    const dialogue = await createDialogue({ messages: [{ role: 'user', content: 'first' }] });
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    await page.locator('li.message').first().waitFor();
    await eventually(() => openStreams() > 0, { what: 'the page’s event stream' });
    await addMessage(dialogue.id, 'arrived while watching', 'assistant');
    await expect
      .poll(() => page.locator('li.message .content').allTextContents())
      .toEqual(['first', 'arrived while watching']);
  });

  it('misses no message written while the page’s live updates were still connecting', async () => {
    const dialogue = await createDialogue({ messages: [{ role: 'user', content: 'first' }] });
    const page = await signedIn('/dialogues');
    // The page's event stream is held at the network until a message has been written.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked: () => void = () => {};
    const streamAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    // Whether each read of the messages was sent while the stream was held. A read sent before
    // the stream is open could be answered before the message is written, and the stream would
    // start after it: the message would be in neither.
    let streamHeld = true;
    const readsWhileHeld: boolean[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/messages')) readsWhileHeld.push(streamHeld);
    });
    await page.route(
      (url) => url.pathname.endsWith('/api/v1/events/stream'),
      async (route) => {
        asked();
        await held;
        streamHeld = false;
        await route.continue();
      },
    );
    await page.goto(`${base}/console/dialogues/${dialogue.id}`);
    await streamAsked;
    await addMessage(dialogue.id, 'written while connecting', 'assistant');
    release();
    await expect
      .poll(() => page.locator('li.message .content').allTextContents())
      .toEqual(['first', 'written while connecting']);
    expect(readsWhileHeld).toEqual([false]);
  });

  it('finds a message by meaning', async () => {
    const dialogue = await createDialogue({
      messages: [
        { role: 'user', content: 'My cat loves sleeping on the warm sofa all afternoon.' },
        { role: 'user', content: 'The quarterly tax report is due on Friday.' },
        { role: 'user', content: 'Our train to Berlin leaves at seven tomorrow morning.' },
      ],
    });
    const cat = dialogue.messages[0]!.id;
    // The embedding worker embeds messages after their commit. Waiting on its queue, not polling
    // the search: every search counts against the project's rate limit, which a slow machine's
    // polling used up before the worker was done (429s until the window ended).
    await untilEmbedded(ctx.app.db);
    const response = await api({
      method: 'POST',
      url: '/api/v1/search',
      payload: { query: 'kitten napping on a couch', object: 'message', limit: 1 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { mode: string; results: { item: { id: string } }[] };
    expect(body.mode).toBe('hybrid');
    expect(body.results[0]?.item.id).toBe(cat);
    const page = await signedIn('/search');
    await page.getByLabel('Search', { exact: true }).fill('kitten napping on a couch');
    await page.getByLabel('Object type').selectOption('message');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.getByRole('list', { name: 'Results' }).getByRole('listitem').first();
    await first.waitFor();
    expect(await first.textContent()).toContain('My cat loves sleeping');
    expect(await first.textContent()).toMatch(/Relevance \d\.\d{3}/);
    await checkPage(page, 'search');
    await first.getByRole('link', { name: cat }).click();
    await page.getByRole('heading', { name: `Dialogue ${dialogue.id}` }).waitFor();
  });

  it('tails the event feed live, and resumes after a pause without losing an event', async () => {
    const page = await signedIn('/events');
    await eventually(() => openStreams() > 0, { what: 'the events page’s stream' });
    const created = await createDialogue({ label: 'watched' });
    const events = page.getByRole('list', { name: 'Events' });
    await expect.poll(() => events.textContent()).toContain(created.id);
    await checkPage(page, 'events');

    await page.getByRole('button', { name: 'Pause' }).click();
    await eventually(() => openStreams() === 0, { what: 'the stream to close on pause' });
    const memory = (
      await api({ method: 'POST', url: '/api/v1/memory', payload: { value: 'written while paused' } })
    ).json() as { id: string };
    expect(await events.textContent()).not.toContain(memory.id);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => events.textContent()).toContain(memory.id);
    expect(await page.getByRole('listitem').filter({ hasText: memory.id }).textContent()).toContain(
      'memory.created',
    );
  });

  it('lists memories with their values and deletes one after confirmation', async () => {
    const response = await api({
      method: 'POST',
      url: '/api/v1/memory',
      payload: { label: 'preferences', value: { theme: 'dark', language: 'nb' }, tags: ['profile'] },
    });
    const memory = response.json() as { id: string };
    const page = await signedIn('/memories?tag=profile');
    const card = page.locator(`li.card[id="${memory.id}"]`);
    await card.waitFor();
    expect(await card.locator('pre.json').textContent()).toBe(
      JSON.stringify({ theme: 'dark', language: 'nb' }, null, 2),
    );
    await checkPage(page, 'memories');
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Confirm delete' }).click();
    await card.waitFor({ state: 'detached' });
    const gone = await api({ method: 'GET', url: `/api/v1/memory/${memory.id}` });
    expect(gone.statusCode).toBe(404);
  });

  it('shows the context a model would be sent, with its token count', async () => {
    const dialogue = await createDialogue({
      messages: [
        { role: 'user', content: 'Remind me to water the plants.' },
        { role: 'assistant', content: 'I will remind you tonight.' },
      ],
    });
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    await page.getByText('Context for a model').click();
    await page.getByLabel('Format').selectOption('text');
    await page.getByRole('button', { name: 'Show context' }).click();
    const expected = (
      await api({ method: 'GET', url: `/api/v1/dialogue/${dialogue.id}/context?format=text&maxTokens=4000` })
    ).json() as { tokens: number; text: string };
    await expect
      .poll(() => page.locator('details.context').textContent())
      .toContain(`${expected.tokens} tokens`);
    expect(await page.locator('details.context pre').textContent()).toBe(expected.text);
  });

  it('ends a dialogue after confirmation', async () => {
    const dialogue = await createDialogue({ messages: [{ role: 'user', content: 'bye' }] });
    const page = await signedIn(`/dialogues/${dialogue.id}`);
    await page.getByRole('button', { name: 'End', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm end' }).click();
    await expect
      .poll(async () => (await api({ method: 'GET', url: `/api/v1/dialogue/${dialogue.id}` })).json().status)
      .toBe('ended');
  });

  it('shows the webhooks page', async () => {
    const page = await signedIn('/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('No webhook endpoints').waitFor();
    await checkPage(page, 'webhooks');
  });

  it('lets the admin create a key, shown once, and revoke it', async () => {
    const page = await signedIn('/admin', { adminToken: ADMIN_TOKEN });
    const card = page.locator(`li.card[data-project-id="${project.projectId}"]`);
    await card.getByRole('button', { name: 'Keys and usage' }).click();
    await card.getByText(/Usage in/).waitFor();
    await card.getByRole('button', { name: 'Create key' }).click();
    const key = (await card.locator('code.api-key').textContent()) ?? '';
    expect(key).toMatch(/^prly_/);
    const withNewKey = () =>
      ctx.app.inject({ method: 'GET', url: '/api/v1/dialogue', headers: { authorization: `Bearer ${key}` } });
    expect((await withNewKey()).statusCode).toBe(200);
    await checkPage(page, 'admin');

    const rows = card.getByRole('row').filter({ hasText: key.slice(0, 9) });
    await rows.getByRole('button', { name: 'Revoke' }).click();
    await rows.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect.poll(() => rows.textContent()).toContain('revoked');
    await eventually(async () => (await withNewKey()).statusCode === 401, { what: 'the key to be refused' });
  });
});

describe('the data lifecycle in the console (D150-D165)', () => {
  it('forks a dialogue at a message, opens the fork, links it to its original, and lists the forks', async () => {
    const dialogue = await createDialogue({
      namespace: 'fork-user',
      label: 'Plan A',
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'second question' },
      ],
    });
    const [, upTo] = dialogue.messages;
    const page = await signedIn(`/dialogues/${dialogue.id}?namespace=fork-user`);
    const message = page.locator(`li.message[id="${upTo!.id}"]`);
    await message.getByRole('button', { name: 'Fork here' }).click();
    await message.getByRole('button', { name: 'Confirm fork here' }).click();
    await expect.poll(() => new URL(page.url()).pathname).not.toBe(`/console/dialogues/${dialogue.id}`);

    const forks = await api({
      method: 'GET',
      url: `/api/v1/dialogue?forkedFrom=${dialogue.id}`,
    });
    const [fork] = (forks.json() as { items: { id: string; totalMessages: number }[] }).items;
    expect(fork?.totalMessages).toBe(2);
    expect(new URL(page.url()).pathname).toBe(`/console/dialogues/${fork!.id}`);
    await page.getByRole('heading', { name: `Dialogue ${fork!.id}` }).waitFor();
    await expect
      .poll(() => page.locator('li.message .content').allTextContents())
      .toEqual(['first question', 'first answer']);
    const origin = page.locator('dt:text-is("Forked from") + dd');
    expect(await origin.textContent()).toBe(`${dialogue.id} at message ${upTo!.id}`);
    await checkPage(page, 'dialogue-fork');

    // The original, opened at the message the fork was copied up to (D132).
    await origin.getByRole('link', { name: upTo!.id }).click();
    await page.getByRole('heading', { name: `Dialogue ${dialogue.id}` }).waitFor();
    await page.locator(`li.message[id="${upTo!.id}"][aria-current="true"]`).waitFor();

    // Its forks, by the list's forkedFrom filter.
    await page.getByRole('link', { name: 'List the forks' }).click();
    await page.getByRole('heading', { name: 'Dialogues' }).waitFor();
    expect(new URL(page.url()).search).toBe(`?forkedFrom=${dialogue.id}`);
    expect(await page.getByLabel('Forked from').inputValue()).toBe(dialogue.id);
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.getByRole('link', { name: fork!.id }).waitFor();
    await checkPage(page, 'dialogues-forks');
  });

  it('shows when dialogues and memories expire, and never for those that do not', async () => {
    const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const tag = `expiry-${Date.now()}`;
    const expiring = (await createDialogue({ tags: [tag], expiresAt })) as unknown as {
      id: string;
      expiresAt: string;
    };
    const lasting = await createDialogue({ tags: [tag] });
    const memory = (
      await api({
        method: 'POST',
        url: '/api/v1/memory',
        payload: { value: 'soon gone', tags: [tag], expiresAt },
      })
    ).json() as { id: string; expiresAt: string };

    const page = await signedIn(`/dialogues?tag=${tag}`);
    const rowOf = (id: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: id }) });
    await rowOf(expiring.id).waitFor();
    await rowOf(expiring.id).locator(`time[datetime="${expiring.expiresAt}"]`).waitFor();
    expect(await rowOf(lasting.id).locator('td').last().textContent()).toBe('never');

    await page.getByRole('link', { name: expiring.id }).click();
    const expires = page.locator('dt:text-is("Expires") + dd');
    await expires.locator(`time[datetime="${expiring.expiresAt}"]`).waitFor();

    await page.goto(`${base}/console/memories?tag=${tag}`);
    const card = page.locator(`li.card[id="${memory.id}"]`);
    await card.locator(`time[datetime="${memory.expiresAt}"]`).waitFor();
    await checkPage(page, 'memories-expiry');
  });

  it('erases a namespace after confirmation and follows the erasure until it completes', async () => {
    const namespace = `user-${Date.now()}`;
    await createDialogue({
      namespace,
      messages: [
        { role: 'user', content: 'my address is 12 Elm Street' },
        { role: 'assistant', content: 'noted' },
      ],
    });
    const remembered = await api({
      method: 'POST',
      url: '/api/v1/memory',
      payload: { namespace, value: { street: 'Elm' } },
    });
    expect(remembered.statusCode).toBe(201);

    const page = await signedIn(`/dialogues?namespace=${namespace}`);
    await page.getByRole('link', { name: `Erase namespace ${namespace}…` }).click();
    await page.getByRole('heading', { name: 'Erasures' }).waitFor();
    expect(await page.getByLabel('Namespace').inputValue()).toBe(namespace);
    await page.getByRole('button', { name: 'Erase namespace' }).click();
    await page.getByRole('button', { name: 'Confirm erase namespace' }).click();

    const status = page.locator('p.erasure-status');
    await expect
      .poll(() => status.textContent())
      .toBe('Pending: erased so far 0 dialogues, 0 messages, 0 memories.');
    const id = new URL(page.url()).searchParams.get('id') ?? '';
    expect(id).not.toBe('');
    await checkPage(page, 'erasure-pending');

    // The background erasure, run here: the page reads the record again until it completes.
    expect(await ctx.app.services.erasures.runDue()).toBe(1);
    await expect.poll(() => status.textContent()).toBe('Completed: erased 1 dialogue, 2 messages, 1 memory.');
    const record = (await api({ method: 'GET', url: `/api/v1/erasures/${id}` })).json() as {
      status: string;
      counts: Record<string, number>;
    };
    expect(record).toMatchObject({ status: 'completed', counts: { dialogues: 1, messages: 2, memories: 1 } });
    await checkPage(page, 'erasure-completed');
  });

  it('shows the admin a project’s retention policy and what it would delete now', async () => {
    const kept = await createProject(ctx.app, {
      retention: { messageDays: 1, namespaces: { archive: { memoryDays: 2 } } },
    });
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const created = await asProject(
      ctx.app,
      kept,
    )({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: {
        messages: [
          { role: 'user', content: 'old question', created: threeDaysAgo },
          { role: 'assistant', content: 'old answer', created: threeDaysAgo },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);

    const page = await signedIn('/admin', { adminToken: ADMIN_TOKEN });
    const card = page.locator(`li.card[data-project-id="${kept.projectId}"]`);
    await card.getByRole('button', { name: 'Retention' }).click();
    const policy = card.getByRole('table', { name: /Retention policy/ });
    await policy.waitFor();
    expect(await policy.getByRole('row').allTextContents()).toEqual([
      'Applies toMessagesIdle dialoguesMemories',
      'The project (every other namespace)1——',
      'Namespace archive——2',
    ]);
    const preview = (
      await ctx.app.inject({
        method: 'GET',
        url: `/admin/v1/projects/${kept.projectId}/retention/preview`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json() as { total: Record<string, number>; rules: { object: string; reason: string; count: number }[] };
    expect(preview.total).toEqual({ dialogues: 0, messages: 2, memories: 0 });
    await expect
      .poll(() => card.getByRole('status').textContent())
      .toBe('A sweep now would delete 0 dialogues, 2 messages, 0 memories.');
    const rules = card.getByRole('table', { name: /What a sweep would delete/ }).getByRole('row');
    expect(await rules.count()).toBe(preview.rules.length + 1);
    const messageRule = rules.filter({ hasText: '1 day since created' });
    expect(await messageRule.locator('td').nth(3).textContent()).toBe('2');
    await checkPage(page, 'admin-retention');
  });

  it('lets the admin erase a project after confirming, and shows the erasure’s record', async () => {
    const doomed = await createProject(ctx.app);
    const filled = await asProject(
      ctx.app,
      doomed,
    )({
      method: 'POST',
      url: '/api/v1/dialogue',
      payload: { messages: [{ role: 'user', content: 'forget me' }] },
    });
    expect(filled.statusCode, filled.body).toBe(201);

    const page = await signedIn('/admin', { adminToken: ADMIN_TOKEN });
    const card = page.locator(`li.card[data-project-id="${doomed.projectId}"]`);
    await card.getByRole('button', { name: 'Erase' }).click();
    await card.getByRole('button', { name: 'Erase project' }).click();
    await card.getByRole('button', { name: 'Confirm erase project' }).click();
    const receipt = page.locator('p.notice[role="status"]');
    await receipt.waitFor();
    const record = /Record (era_\S+?), completed/.exec((await receipt.textContent()) ?? '')?.[1];
    expect(await receipt.textContent()).toContain(
      `Project ${doomed.projectId} erased: 1 dialogue, 1 message, 0 memories.`,
    );
    expect(await card.count()).toBe(0);
    // The record shown is the one kept.
    const kept = await ctx.app.inject({
      method: 'GET',
      url: `/admin/v1/erasures/${record}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ projectId: doomed.projectId, status: 'completed' });
    await checkPage(page, 'admin-erased');
  });
});
