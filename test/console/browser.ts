import { mkdir } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type Page, chromium } from 'playwright-core';

// Debian's Chromium driven by playwright-core, for the console's end-to-end tests. Chromium's own
// download is not used: the machine's package is (`apt-get install -y chromium`).

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where each page's screenshot is kept (git-ignored): CI keeps the folder as an artifact. */
const ARTIFACTS = new URL('../../test-artifacts/console/', import.meta.url).pathname;

export async function launchChromium(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    // A closed network: nothing in the browser may try to reach the outside on its own.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** axe-core's serious and critical findings on the page as it is now (none expected). */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** Saves the page as test-artifacts/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: false });
}
