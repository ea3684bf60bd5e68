import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every e2e test fails on a console error or an uncaught page error, from the page or its workers.
 */
export const test = base.extend<{ failOnConsoleErrors: void }>({
  failOnConsoleErrors: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      await use();
      expect(problems, problems.join('\n')).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Waits for the run status to read `want`. A run that ends in 'error' fails at once, with the
 * notices the page showed, so a CI log says why.
 */
export async function expectStatus(page: Page, want: string, timeout = 30_000): Promise<void> {
  const status = page.getByTestId('status');
  const deadline = Date.now() + timeout;
  let now: string | null = null;
  while (Date.now() < deadline) {
    now = await status.textContent();
    if (now === want) return;
    if (now === 'error') {
      const notices = (await page.getByTestId('notices').allInnerTexts()).join(' | ');
      throw new Error(`expected status '${want}', but the run ended in error; notices: ${notices || '(none)'}`);
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`expected status '${want}' within ${timeout} ms; it still reads '${now}'`);
}
