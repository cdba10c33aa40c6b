// `npm run bench:console`: the web console with a 10,000-message dialogue, in Debian's Chromium.
// Prints the console's JavaScript size (gzip), the time until the dialogue page shows its first
// messages beside the time of the API call that feeds it (the baseline, same run), the time to
// load all of it by scrolling up (older pages by cursor) beside the same cursor walk from Node,
// and the page's JavaScript heap and DOM after every message has been loaded and scrolled through
// (CDP). The page holds only the messages in and near its view (D130), whatever it has loaded.
import { readFile, readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { launchChromium } from '../test/console/browser.js';
import { asProject, createProject, createTestContext } from '../test/helpers/app.js';

const MESSAGES = 10_000;
const BATCH = 100;
const consoleDir = new URL('../console/', import.meta.url).pathname;

await build({ configFile: join(consoleDir, 'vite.config.ts'), logLevel: 'warn' });
const assets = join(consoleDir, 'dist/assets');
let scriptBytes = 0;
let scriptGzip = 0;
for (const file of await readdir(assets)) {
  if (!file.endsWith('.js')) continue;
  const content = await readFile(join(assets, file));
  scriptBytes += content.length;
  scriptGzip += gzipSync(content, { level: 9 }).length;
}

const ctx = await createTestContext();
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
const project = await createProject(ctx.app);
const api = asProject(ctx.app, project);
const dialogue = (await api({ method: 'POST', url: '/api/v1/dialogue', payload: {} })).json() as {
  id: string;
};
for (let start = 0; start < MESSAGES; start += BATCH) {
  const response = await api({
    method: 'POST',
    url: '/api/v1/messages',
    payload: {
      dialogueId: dialogue.id,
      messages: Array.from({ length: BATCH }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `Message ${start + i}: a sentence of ordinary length, as a chat turn would have.`,
      })),
    },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
}

// Baselines: the call the page makes for its first screen, and the walk to the oldest message by
// cursor, straight from Node.
const apiStart = performance.now();
const first = await fetch(`${base}/api/v1/dialogue/${dialogue.id}/messages?order=desc&limit=100`, {
  headers: project.auth,
});
const firstPage = (await first.json()) as { next: string | null };
const apiMs = performance.now() - apiStart;
let next = firstPage.next;
while (next) {
  const response = await fetch(
    `${base}/api/v1/dialogue/${dialogue.id}/messages?order=desc&limit=100&next=${encodeURIComponent(next)}`,
    { headers: project.auth },
  );
  next = ((await response.json()) as { next: string | null }).next;
}
const apiAllMs = performance.now() - apiStart;

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/console/dialogues`);
  await page.getByLabel('API key').fill(project.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dialogues' }).waitFor();
  // Opening the dialogue: from the navigation to its first messages on screen.
  const openStart = performance.now();
  await page.goto(`${base}/console/dialogues/${dialogue.id}`);
  await page.locator('li.message').first().waitFor();
  const openMs = performance.now() - openStart;

  // Scrolled to the top of the pane again and again: each time the next older page loads by
  // cursor and is prepended, the reader's place kept. The DOM is counted after every page.
  const pane = page.locator('.message-pane');
  const loadStart = performance.now();
  const loading = await pane.evaluate(async (element, total) => {
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    const list = element.querySelector('ol.messages') as HTMLElement;
    let mostRendered = 0;
    let scrolls = 0;
    while (Number(list.dataset.count) < total) {
      const before = Number(list.dataset.count);
      element.scrollTop = 0;
      scrolls++;
      for (let waited = 1; Number(list.dataset.count) === before; waited++) {
        if (waited > 3000) throw new Error(`stuck at ${before} messages`);
        await new Promise((done) => requestAnimationFrame(done));
        // A scroll written in the frame the pane settles its last prepend can be overwritten by
        // that settling; a reader would scroll on, and so does this.
        if (waited % 3 === 0 && element.scrollTop > 0) element.scrollTop = 0;
      }
      mostRendered = Math.max(mostRendered, element.querySelectorAll('li.message').length);
    }
    return { scrolls, mostRendered };
  }, MESSAGES);
  const loadAllMs = performance.now() - loadStart;
  // Scroll through every message, top to bottom, a pane's height at a time.
  const scrolled = await pane.evaluate(async (element) => {
    let mostRendered = 0;
    let steps = 0;
    element.scrollTop = 0;
    await new Promise((done) => requestAnimationFrame(done));
    while (element.scrollTop + element.clientHeight < element.scrollHeight - 1) {
      element.scrollTop += element.clientHeight;
      steps++;
      // Two frames: the scroll is seen, then the window's new messages are rendered.
      await new Promise((done) => requestAnimationFrame(done));
      await new Promise((done) => requestAnimationFrame(done));
      mostRendered = Math.max(mostRendered, element.querySelectorAll('li.message').length);
    }
    return { steps, mostRendered };
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  const heap = metric('JSHeapUsedSize');
  const nodes = metric('Nodes');

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const count = MESSAGES.toLocaleString('en');
  console.log(
    `console JavaScript: ${(scriptBytes / 1024).toFixed(1)} KiB, ${(scriptGzip / 1024).toFixed(1)} KiB gzip`,
  );
  console.log(
    `open a ${count}-message dialogue: ${openMs.toFixed(0)} ms until its newest messages show` +
      ` (baseline: the API call for that page alone, ${apiMs.toFixed(0)} ms; ratio ${(openMs / apiMs).toFixed(1)})`,
  );
  console.log(
    `load all ${count} messages by scrolling up (${loading.scrolls} pages by cursor): ${loadAllMs.toFixed(0)} ms` +
      ` (baseline: the same cursor walk from Node, ${apiAllMs.toFixed(0)} ms; ratio ${(loadAllMs / apiAllMs).toFixed(1)});` +
      ` at most ${loading.mostRendered} messages in the DOM`,
  );
  console.log(
    `after scrolling all of them (${scrolled.steps} panes): JS heap ${mb(heap)}, ${nodes.toLocaleString('en')} DOM nodes,` +
      ` at most ${scrolled.mostRendered} messages in the DOM`,
  );
} finally {
  await browser.close();
  await ctx.close();
}
