// The reference page (/docs) of a real `leadline serve`, loaded in Debian's headless Chromium
// through playwright-core: it renders the three resources from the served OpenAPI document,
// logs no console error, fetches nothing from another origin, and its screenshot is kept.
//
// usage: node reference_page_test.mjs LEADLINE_BINARY TOOLS_DIR SCREENSHOT_PNG
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startServer } from '../support/leadline_server.mjs';

const [binary, toolsDir, screenshotPath] = process.argv.slice(2);
if (!binary || !toolsDir || !screenshotPath) {
  console.error('usage: node reference_page_test.mjs LEADLINE_BINARY TOOLS_DIR SCREENSHOT_PNG');
  process.exit(2);
}
// playwright-core is pinned in tools/package.json; resolve it from there.
const { chromium } = createRequire(path.join(toolsDir, 'package.json'))('playwright-core');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

const failures = [];
const fail = (what) => failures.push(what);

const dataDir = mkdtempSync(path.join(tmpdir(), 'leadline-docs-'));
const { server, ready } = startServer(binary, ['--db', `sqlite:${path.join(dataDir, 'leadline.db')}`]);
let browser;
try {
  const base = await ready;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Anything not from this server (fonts, CDNs, analytics) is refused and reported.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base + '/') || url.startsWith('data:') || url.startsWith('blob:')) {
      return route.continue();
    }
    fail(`the page fetched from another origin: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') fail(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => fail(`uncaught exception in the page: ${error.message}`));
  page.on('requestfailed', (request) => {
    fail(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) fail(`HTTP ${response.status()} for ${response.url()}`);
  });

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

if (failures.length > 0) {
  for (const failure of failures) console.error(`FAIL: ${failure}`);
  process.exit(1);
}
console.log('reference page: rendered Leads, Contacts and Conversations with no console error');
