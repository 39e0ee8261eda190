// The reference page (/docs) of a real `leadline serve`, loaded in Debian's headless Chromium
// through playwright-core: it renders the three resources from the served OpenAPI document,
// logs no console error, fetches nothing from another origin, and its screenshot is kept.
//
// usage: node reference_page_test.mjs LEADLINE_BINARY TOOLS_DIR SCREENSHOT_PNG
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CheckedBrowser, Failures, launchBrowser } from '../support/browser_session.mjs';
import { startServer } from '../support/leadline_server.mjs';

const [binary, toolsDir, screenshotPath] = process.argv.slice(2);
if (!binary || !toolsDir || !screenshotPath) {
  console.error('usage: node reference_page_test.mjs LEADLINE_BINARY TOOLS_DIR SCREENSHOT_PNG');
  process.exit(2);
}

const failures = new Failures();
const fail = (what) => failures.add(what);

const dataDir = mkdtempSync(path.join(tmpdir(), 'leadline-docs-'));
const { server, ready } = startServer(binary, ['--db', `sqlite:${path.join(dataDir, 'leadline.db')}`]);
let browser;
try {
  const base = await ready;
  browser = await launchBrowser(toolsDir);
  // Every page of this context is checked: no other origin, console error, page error, failed
  // request or HTTP status of 400 or more.
  const context = await new CheckedBrowser(browser, base, failures)
    .newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  const answer = await page.goto(`${base}/docs`, { waitUntil: 'load' });
  if (answer?.status() !== 200) fail(`GET /docs answered ${answer?.status()}`);
  // Redoc renders once it has fetched and parsed /api/v1/external/openapi.json.
  await page.getByRole('heading', { name: 'leadline external API' }).first()
    .waitFor({ timeout: 30_000 });
  if ((await page.title()) !== 'leadline API reference') fail(`title: ${await page.title()}`);

  for (const resource of ['Leads', 'Contacts', 'Conversations']) {
    const entry = page.locator(`[data-item-id="tag/${resource}"]`).first();
    if (!(await entry.isVisible())) fail(`the side menu has no ${resource} entry`);
    const heading = page.locator(`[id="tag/${resource}"] h2`).first();
    if ((await heading.count()) === 0 || (await heading.textContent()) !== resource) {
      fail(`the page has no ${resource} section`);
    }
  }
  for (const operation of ['List leads, or get one lead by id', 'Create a lead', 'Update a lead',
                           'Delete a lead']) {
    if ((await page.getByText(operation, { exact: true }).count()) === 0) {
      fail(`the operation "${operation}" is not on the page`);
    }
  }

  // The menu works: choosing Conversations scrolls to its section.
  await page.locator('[data-item-id="tag/Conversations"]').first().click();
  await page.waitForFunction(() => window.location.hash.includes('Conversations'),
                             null, { timeout: 10_000 })
    .catch(() => fail('choosing Conversations in the menu did not move to its section'));

  await page.goto(`${base}/docs`, { waitUntil: 'load' });
  await page.getByRole('heading', { name: 'leadline external API' }).first()
    .waitFor({ timeout: 30_000 });
  await page.screenshot({ path: screenshotPath });
  // A blank or unstyled page compresses to a few kilobytes; the rendered reference does not.
  const bytes = statSync(screenshotPath).size;
  if (bytes < 30_000) fail(`the screenshot is ${bytes} bytes: the page looks blank`);
  console.log(`screenshot: ${screenshotPath} (${bytes} bytes)`);
} catch (error) {
  fail(error.stack ?? String(error));
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

failures.exit('reference page: rendered Leads, Contacts and Conversations with no console error');
