import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestContext,
  type TestProject,
  asProject,
  createProject,
  createTestContext,
} from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { launchChromium, screenshot, seriousAccessibilityProblems } from './browser.js';

// A long dialogue in the console (D130, D131): the page holds only the messages in and near the
// pane's view, whatever it has loaded; older pages load by cursor as the reader scrolls up; a
// message named in the address is found and shown. Without the windowing, the DOM would hold
// every loaded message.

const MESSAGES = 2_000;
const BATCH = 100;
/** Far more than a pane of messages and its overscan, far fewer than one page of them (100). */
const RENDERED_AT_MOST = 60;

let ctx: TestContext;
let project: TestProject;
let base: string;
let browser: Browser;
let dialogueId: string;
/** The ids of the dialogue's messages, oldest first. */
const ids: string[] = [];
const textOf = (index: number) =>
  index % 50 === 7 ? `message ${index}: ${'a long line of words '.repeat(100)}` : `message ${index}`;
const api = (options: Parameters<ReturnType<typeof asProject>>[0]) => asProject(ctx.app, project)(options);

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  project = await createProject(ctx.app);
  const created = await api({ method: 'POST', url: '/api/v1/dialogue', payload: { label: 'Long' } });
  dialogueId = (created.json() as { id: string }).id;
  // Messages of several heights: one line, a long text, content blocks.
  for (let start = 0; start < MESSAGES; start += BATCH) {
    const response = await api({
      method: 'POST',
      url: '/api/v1/messages',
      payload: {
        dialogueId,
        messages: Array.from({ length: BATCH }, (_, i) => {
          const index = start + i;
          return index % 50 === 20
            ? {
                role: 'assistant',
                content: [
                  { type: 'text', text: `message ${index}` },
                  {
                    type: 'tool_use',
                    id: `call_${index}`,
                    name: 'lookup',
                    input: { index, deep: { a: [1, 2] } },
                  },
                ],
              }
            : { role: index % 2 ? 'assistant' : 'user', content: textOf(index) };
        }),
      },
    });
    if (response.statusCode !== 201) throw new Error(response.body);
    ids.push(...(response.json() as { items: { id: string }[] }).items.map((item) => item.id));
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

afterEach(async () => {
  for (const context of browser.contexts()) await context.close();
});

async function signedIn(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/console${path}`);
  await page.getByLabel('API key').fill(project.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

type Shown = { id: string; top: number; bottom: number; text: string };

/** The messages in the DOM, and which of them are inside the pane's view (with their offset in it). */
async function look(page: Page): Promise<{ rendered: number; loaded: number; visible: Shown[] }> {
  return page.evaluate(() => {
    const pane = document.querySelector('.message-pane') as HTMLElement;
    const list = pane.querySelector('ol.messages') as HTMLElement;
    const box = pane.getBoundingClientRect();
    const items = [...pane.querySelectorAll<HTMLElement>('li.message')];
    const visible = items
      .map((item) => {
        const rect = item.getBoundingClientRect();
        return {
          id: item.id,
          top: Math.round(rect.top - box.top),
          bottom: Math.round(rect.bottom - box.top),
          text: item.querySelector('.content')?.textContent ?? '',
        };
      })
      .filter((item) => item.bottom > 0 && item.top < box.height)
      .sort((a, b) => a.top - b.top);
    return { rendered: items.length, loaded: Number(list.dataset.count), visible };
  });
}

const olderButton = (page: Page) => page.getByRole('button', { name: 'Load older messages' });

describe('a long dialogue in the console', () => {
  it('opens on its newest messages with a bounded DOM, and loads all of it by scrolling up, keeping the place', async () => {
    const page = await signedIn(`/dialogues/${dialogueId}`);
    await page.locator('li.message').first().waitFor();
    // Opened at its end: the newest message is in view.
    const opened = await eventually(
      async () => {
        const now = await look(page);
        return now.visible.at(-1)?.id === ids.at(-1) && now;
      },
      { what: 'the newest message in view' },
    );
    expect(opened.loaded).toBe(100);
    expect(opened.rendered).toBeLessThanOrEqual(RENDERED_AT_MOST);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    let loaded = opened.loaded;
    let mostRendered = opened.rendered;
    while (loaded < MESSAGES) {
      // Scrolled to the top of what is loaded: the next older page comes by cursor, and the
      // message that was first in view stays where it was on screen.
      await page.locator('.message-pane').evaluate((pane) => {
        pane.scrollTop = 0;
      });
      const oldest = ids[MESSAGES - loaded]!;
      const anchor = await eventually(
        async () => (await look(page)).visible.find((item) => item.id === oldest && item.top >= 0),
        { what: 'the oldest loaded message at the top of the pane' },
      );
      const after = await eventually(
        async () => {
          const now = await look(page);
          if (now.loaded > loaded) return now;
          // A scroll written while the pane settles its last prepend can be overwritten by that
          // settling; a reader would scroll on, and so does this (not once the page is in).
          await page.locator('.message-pane').evaluate((pane, count) => {
            const list = pane.querySelector('ol.messages') as HTMLElement;
            if (Number(list.dataset.count) === count && pane.scrollTop > 0) pane.scrollTop = 0;
          }, loaded);
          return false;
        },
        { what: `more than ${loaded} messages loaded` },
      );
      await eventually(
        async () => {
          const found = (await look(page)).visible.find((item) => item.id === oldest);
          return found && Math.abs(found.top - anchor.top) <= 1;
        },
        { what: `message ${oldest} to stay in place` },
      );
      loaded = after.loaded;
      mostRendered = Math.max(mostRendered, after.rendered);
    }
    expect(loaded).toBe(MESSAGES);
    expect(await olderButton(page).count()).toBe(0);
    await page.locator('.message-pane').evaluate((pane) => {
      pane.scrollTop = 0;
    });
    const top = await eventually(
      async () => {
        const now = await look(page);
        return now.visible[0]?.id === ids[0] && now;
      },
      { what: 'the first message of the dialogue in view' },
    );
    expect(top.visible[0]!.text).toBe('message 0');
    expect(Math.max(mostRendered, top.rendered)).toBeLessThanOrEqual(RENDERED_AT_MOST);
    expect(await page.locator('li.message').count()).toBeLessThanOrEqual(RENDERED_AT_MOST);
    // Screen readers hear each message's place in the whole dialogue.
    expect(await page.locator(`li.message[id="${ids[0]}"]`).getAttribute('aria-posinset')).toBe('1');
    expect(await page.locator(`li.message[id="${ids[0]}"]`).getAttribute('aria-setsize')).toBe(
      String(MESSAGES),
    );
    await screenshot(page, 'dialogue-long-top');
  });

  it('loads older messages by keyboard: the button, and Home in the focused pane', async () => {
    const page = await signedIn(`/dialogues/${dialogueId}`);
    await page.locator('li.message').first().waitFor();
    await olderButton(page).focus();
    await page.keyboard.press('Enter');
    await eventually(async () => (await look(page)).loaded === 200, { what: '200 messages loaded' });
    await page.locator('.message-pane').focus();
    await page.keyboard.press('Home');
    await eventually(async () => (await look(page)).loaded === 300, { what: '300 messages loaded' });
    expect((await look(page)).rendered).toBeLessThanOrEqual(RENDERED_AT_MOST);
  });

  it('opens at a message named in the address, loading older pages until it is there', async () => {
    const wanted = 321;
    const page = await signedIn(`/dialogues/${dialogueId}#${ids[wanted]}`);
    const item = page.locator(`li.message[id="${ids[wanted]}"]`);
    await item.waitFor();
    await eventually(async () => (await look(page)).visible.some((shown) => shown.id === ids[wanted]), {
      what: `message ${wanted} in view`,
    });
    expect(await item.getAttribute('aria-current')).toBe('true');
    expect(await item.locator('.content').textContent()).toBe(textOf(wanted));
    // Pages are loaded back to the one holding it (and perhaps one more, as it is near the top).
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'messages loaded' }).count()).toBe(1);
    const now = await look(page);
    const needed = Math.ceil((MESSAGES - wanted) / 100) * 100;
    expect(now.loaded).toBeGreaterThanOrEqual(needed);
    expect(now.loaded).toBeLessThanOrEqual(needed + 100);
    expect(now.rendered).toBeLessThanOrEqual(RENDERED_AT_MOST);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Its raw view is the API's bytes.
    await item.getByRole('button', { name: 'Raw' }).click();
    const answer = await api({
      method: 'GET',
      url: `/api/v1/message/${ids[wanted]}?dialogueId=${dialogueId}`,
    });
    await expect.poll(() => item.locator('pre.raw').textContent()).toBe(answer.body);
    const pane = page.locator('.message-pane');
    const place = await pane.evaluate((element) => element.scrollTop);
    // The message holding the focus (its Raw button) stays rendered when scrolled far away...
    await pane.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await eventually(async () => (await look(page)).visible.at(-1)?.id === ids.at(-1), {
      what: 'the newest message in view',
    });
    expect(
      await item.getByRole('button', { name: 'Raw' }).evaluate((button) => button === document.activeElement),
    ).toBe(true);
    // ...and leaves the DOM once the focus moves on; scrolled back, its raw view is still open.
    await pane.focus();
    await item.waitFor({ state: 'detached' });
    await pane.evaluate((element, top) => {
      element.scrollTop = top;
    }, place);
    await item.waitFor();
    await expect.poll(() => item.locator('pre.raw').textContent()).toBe(answer.body);
    expect((await look(page)).rendered).toBeLessThanOrEqual(RENDERED_AT_MOST);
  });

  it('keeps a message shown in full when it leaves the window and comes back', async () => {
    const wanted = MESSAGES - 43; // a long text (more than 2,000 characters), cut for display
    const page = await signedIn(`/dialogues/${dialogueId}#${ids[wanted]}`);
    const item = page.locator(`li.message[id="${ids[wanted]}"]`);
    await eventually(async () => (await look(page)).visible.some((shown) => shown.id === ids[wanted]), {
      what: `message ${wanted} in view`,
    });
    await item.getByRole('button', { name: /Show all/ }).click();
    await expect.poll(() => item.locator('.content').textContent()).toBe(textOf(wanted));
    const pane = page.locator('.message-pane');
    const place = await pane.evaluate((element) => element.scrollTop);
    await pane.focus();
    await pane.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await item.waitFor({ state: 'detached' });
    await pane.evaluate((element, top) => {
      element.scrollTop = top;
    }, place);
    await item.waitFor();
    expect(await item.locator('.content').textContent()).toBe(textOf(wanted));
  });

  it('follows a new message at the end of the pane', async () => {
    const page = await signedIn(`/dialogues/${dialogueId}`);
    await eventually(async () => (await look(page)).visible.at(-1)?.id === ids.at(-1), {
      what: 'the newest message in view',
    });
    await eventually(() => ctx.app.services.eventHub.size > 0, { what: 'the page’s event stream' });
    const added = await api({
      method: 'POST',
      url: '/api/v1/message',
      payload: { dialogueId, role: 'user', content: 'arrived while watching' },
    });
    const id = (added.json() as { id: string }).id;
    const now = await eventually(
      async () => {
        const seen = await look(page);
        return seen.visible.at(-1)?.id === id && seen;
      },
      { what: 'the new message in view' },
    );
    expect(now.visible.at(-1)!.text).toBe('arrived while watching');
    await api({ method: 'DELETE', url: `/api/v1/message/${id}?dialogueId=${dialogueId}` });
  });
});
