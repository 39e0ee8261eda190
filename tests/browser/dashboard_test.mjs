// The dashboard of a real `leadline serve`, in Debian's headless Chromium through
// playwright-core, driven the way a person uses it — by the accessible names of fields, buttons
// and links (docs/dashboard.md "What a person can rely on"):
//
//  - a user added with `leadline users add` opens the setup link, chooses a password, is signed
//    in; signs out; a wrong password shows the server's sentence;
//  - keyboard only (Tab, Enter, Space): sign in, create a Read+Write key with an IP whitelist,
//    see it once, copy it, sign out;
//  - the key works against the API, the request shows on the Usage page within 5 s (numbers and
//    the chart); revoking it in the page makes the API answer 401;
//  - a webhook endpoint on a local receiver: its secret shown once, Send test event reaches the
//    receiver signed with that secret and appears in the deliveries, Redeliver sends it again;
//  - a lead created through the API appears on the Events page, and the type filter works;
//  - sign out ends the session (the dashboard's API answers 401);
//  - every page: no serious or critical axe-core violation, nothing from another origin, no
//    console error, no page error, no HTTP status ≥ 400 the step does not expect, no sideways
//    scrolling at a phone's width; screenshots at 1280×900 and 390×844 into OUT_DIR.
//
// usage: node dashboard_test.mjs LEADLINE_BINARY TOOLS_DIR OUT_DIR
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { CheckedBrowser, Failures, launchBrowser } from '../support/browser_session.mjs';
import { startServer } from '../support/leadline_server.mjs';

const [binaryArg, toolsArg, outArg] = process.argv.slice(2);
if (!binaryArg || !toolsArg || !outArg) {
  console.error('usage: node dashboard_test.mjs LEADLINE_BINARY TOOLS_DIR OUT_DIR');
  process.exit(2);
}
const binary = path.resolve(binaryArg);
const toolsDir = path.resolve(toolsArg);
const outDir = path.resolve(outArg);
mkdirSync(outDir, { recursive: true });
const axeSource = readFileSync(path.join(toolsDir, 'node_modules/axe-core/axe.min.js'), 'utf8');
const { Webhook } = createRequire(path.join(toolsDir, 'package.json'))('standardwebhooks');

const failures = new Failures();
const fail = (what) => failures.add(what);
const run = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const log = (what) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

// A whole-run guard: a page that never shows what it should must fail the test, not hang it.
const guard = setTimeout(() => {
  console.error('FAIL: the test did not finish within 150 s');
  for (const failure of failures.list) console.error(`FAIL: ${failure}`);
  process.exit(1);
}, 150_000);

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery staple';
// The API key's limit, low enough that the usage chart gets rate-limited requests too.
const RATE_LIMIT = 20;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const dataDir = mkdtempSync(path.join(tmpdir(), 'leadline-dashboard-'));
const db = `sqlite:${path.join(dataDir, 'leadline.db')}`;

// `leadline ARGS... --db DB --json`, parsed.
async function cli(...args) {
  const { stdout } = await run(binary, [...args, '--db', db, '--json'], { timeout: 30_000 });
  return JSON.parse(stdout);
}

// Polls `check` (an async predicate) until it holds; false after `ms`.
async function eventually(check, ms = 10_000, every = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return true;
    } catch {
      // Not there yet (an element still rendering): look again.
    }
    if (Date.now() > deadline) return false;
    await sleep(every);
  }
}

// The webhook receiver: keeps each request's headers and raw body, answers 200 "ok".
const received = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
});

let base;
let server;
let serverOutput = () => '';
let browser;

// --- what every page gets ---------------------------------------------------------------------

// axe-core's serious and critical violations on what the page shows now. axe is evaluated
// through the DevTools protocol: a <script> tag with its text would be refused by the page's
// Content-Security-Policy, which the test keeps in force.
async function audit(page, name) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const { violations } = await page.evaluate(
    () => window.axe.run(document, { resultTypes: ['violations'] }));
  for (const violation of violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
    const where = violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join('; ');
    fail(`axe on ${name}: ${violation.impact} ${violation.id} (${violation.help}) at ${where}`);
  }
}

async function shoot(page, name) {
  const { width } = page.viewportSize();
  await page.screenshot({ path: path.join(outDir, `${width > 600 ? 'desktop' : 'phone'}-${name}.png`),
                          fullPage: true });
}

// At a phone's width the page itself must not scroll sideways (wide tables scroll in their box).
async function checkPhone(page, name) {
  await audit(page, `${name} (phone)`);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) fail(`${name} at ${PHONE.width} px is ${overflow} px wider than the screen`);
  await shoot(page, name);
}

// Presses Tab (Shift+Tab backwards) until `target` has the focus.
async function tabTo(page, target, { backwards = false } = {}) {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`40 presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

async function alertSays(page, text) {
  await page.getByRole('alert').filter({ hasText: text }).waitFor({ timeout: 5_000 });
}

async function signIn(page) {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Email', { exact: true }).fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${base}/dashboard/keys`);
}

// A page is rendered once its placeholders ("Loading…") have given way to what it fetched.
async function settled(page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  const loading = page.getByText('Loading…', { exact: true });
  if (!(await eventually(async () => (await loading.count()) === 0, 10_000))) {
    throw new Error(`${page.url()} still says "Loading…" after 10 s`);
  }
}

async function goTo(page, link, name) {
  await page.getByRole('link', { name: link, exact: true }).click();
  await page.waitForURL(`${base}/dashboard/${name}`);
  await settled(page);
}

try {
  const workspace = (await cli('workspaces', 'create', '--name', 'Dashboard test')).id;
  const user = await cli('users', 'add', '--workspace', workspace, '--email', EMAIL,
                         '--name', 'Ada Lovelace');
  // A second user's link is only looked at (at a phone's width), never used.
  const other = await cli('users', 'add', '--workspace', workspace, '--email', 'grace@example.com',
                          '--name', 'Grace Hopper');
  if (typeof user.setup_url !== 'string' || typeof other.setup_url !== 'string') {
    throw new Error(`users add --json gave no setup_url: ${JSON.stringify(user)}`);
  }
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
  const started = startServer(binary, ['--db', db, '--rate-limit', `${RATE_LIMIT}/1m`,
                                       '--webhook-allow-http',
                                       '--webhook-allow-private', '127.0.0.0/8']);
  server = started.server;
  serverOutput = started.output;
  base = await started.ready;
  // The links name --public-url's origin (by default http://127.0.0.1:8080): this server's here.
  const onThisServer = (setupLink) => {
    const { pathname, search } = new URL(setupLink);
    return `${base}${pathname}${search}`;
  };
  const setupUrl = onThisServer(user.setup_url);

  browser = await launchBrowser(toolsDir);
  const checked = new CheckedBrowser(browser, base, failures);
  const desktop = await checked.newContext({ viewport: DESKTOP });
  desktop.setDefaultTimeout(10_000);
  await desktop.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await desktop.newPage();

  log('setup link: choose a password');
  const shell = await page.goto(setupUrl);
  // The page's own policy stays in force for the whole test: an inline script or style anywhere
  // would be refused, and show as a console error.
  const policy = shell.headers()['content-security-policy'] ?? '';
  if (!policy.includes("default-src 'self'") || policy.includes('unsafe-inline')) {
    fail(`the setup page's Content-Security-Policy is "${policy}"`);
  }
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await audit(page, 'setup');
  await shoot(page, 'setup');
  await page.getByLabel('New password', { exact: true }).fill('too short');
  await page.getByLabel('Repeat the password', { exact: true }).fill('too short');
  await page.getByRole('button', { name: 'Set password', exact: true }).click();
  await alertSays(page, 'at least 12 characters');
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password', exact: true }).click();
  await page.waitForURL(`${base}/dashboard/keys`);
  await settled(page);

  log('sign out; a wrong password');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${base}/dashboard/sign-in`);
  checked.expectStatus(401, '/dashboard/api/session');
  await page.getByLabel('Email', { exact: true }).fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await alertSays(page, 'Incorrect e-mail or password');
  await audit(page, 'sign-in');
  await shoot(page, 'sign-in');

  log('keyboard only: sign in, create a key, see it once, copy it, sign out');
  await page.goto(`${base}/dashboard/sign-in`);
  await tabTo(page, page.getByLabel('Email', { exact: true }));
  await page.keyboard.type(EMAIL);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/dashboard/keys`);
  await settled(page);
  // Without a name the form says so, marks the field and puts the focus there.
  await tabTo(page, page.getByRole('button', { name: 'Create key', exact: true }));
  await page.keyboard.press('Enter');
  await alertSays(page, 'Give the key a name.');
  const nameField = page.getByLabel('Name', { exact: true });
  if ((await nameField.getAttribute('aria-invalid')) !== 'true'
      || !(await nameField.evaluate((el) => el === document.activeElement))) {
    fail('an empty key name is not marked invalid and focused');
  }
  await page.keyboard.type('Integration');
  const read = page.getByRole('checkbox', { name: 'Read', exact: true });
  const write = page.getByRole('checkbox', { name: 'Write', exact: true });
  await tabTo(page, read);
  if (!(await read.isChecked())) await page.keyboard.press('Space');
  await tabTo(page, write);
  if (!(await write.isChecked())) await page.keyboard.press('Space');
  if (!(await read.isChecked()) || !(await write.isChecked())) {
    fail('Tab and Space did not leave Read and Write ticked');
  }
  // Enter in the textarea starts a new entry; the test's requests come from 127.0.0.1.
  await tabTo(page, page.getByLabel('IP whitelist', { exact: true }));
  await page.keyboard.type('127.0.0.1\n10.0.0.0/8');
  await tabTo(page, page.getByRole('button', { name: 'Create key', exact: true }));
  await page.keyboard.press('Enter');
  const shown = page.getByRole('textbox', { name: 'New API key', exact: true });
  await shown.waitFor();
  const key = await shown.inputValue();
  if (!/^fc_live_[A-Za-z0-9]{40}$/.test(key)) fail(`the page shows no API key but "${key}"`);
  if (!(await shown.evaluate((element) => element === document.activeElement))) {
    fail('the new key does not take the focus');
  }
  if ((await page.getByText('it will not be shown again').count()) !== 1) {
    fail('the new key comes without the warning that it will not be shown again');
  }
  await tabTo(page, page.getByRole('button', { name: 'Copy', exact: true }));
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  if (copied !== key) fail(`Copy put "${copied}" on the clipboard, not the key`);
  await shoot(page, 'keys-new-key');
  await tabTo(page, page.getByRole('button', { name: 'Sign out', exact: true }), { backwards: true });
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/dashboard/sign-in`);

  log('the key is listed, never shown again');
  await signIn(page);
  await settled(page);
  const keyRow = page.getByRole('row', { name: /^Integration/ });
  const rowText = await keyRow.innerText();
  if (!rowText.includes('Read, Write') || !rowText.includes('Active')
      || !/127\.0\.0\.1\s+10\.0\.0\.0\/8/.test(rowText)) {
    fail(`the keys table shows the new key as "${rowText}"`);
  }
  const keyOnPage = await page.evaluate((secret) => document.documentElement.outerHTML.includes(secret)
    || [...document.querySelectorAll('input, textarea')].some((field) => field.value.includes(secret)),
  key);
  if (keyOnPage) fail('the key is on the keys page again after signing in anew');
  await audit(page, 'keys');

  log('the key against the API; the request on the Usage page');
  const asKey = (route) => fetch(`${base}/api/v1/external${route}`,
                                 { headers: { Authorization: `Bearer ${key}` } });
  const first = await asKey('/leads');
  if (first.status !== 200) fail(`GET /leads with the new key answered ${first.status}`);
  const requestedAt = Date.now();
  await goTo(page, 'Usage', 'usage');
  const today = page.getByRole('group', { name: 'Today', exact: true });
  if (!(await eventually(async () => /^Today\s+1\s/.test(await today.innerText()), 10_000))) {
    fail(`the Usage page never showed the request: Today says "${await today.innerText()}"`);
  } else if (Date.now() - requestedAt > 5_000) {
    fail(`the request took ${Date.now() - requestedAt} ms to show on the Usage page (at most 5 s)`);
  } else {
    log(`the request showed on the Usage page after ${Date.now() - requestedAt} ms`);
  }
  const hourly = page.getByRole('figure', { name: /^1 request in the last 48 hours/ });
  if (!(await eventually(() => hourly.isVisible(), 3_000))) {
    fail('the hourly chart\'s summary does not say "1 request in the last 48 hours"');
  } else {
    // The bar of successes, in the series' colour (#4f5bd5), is on the canvas.
    const painted = await hourly.locator('canvas').first().evaluate((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let pixels = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] === 0x4f && data[i + 1] === 0x5b && data[i + 2] === 0xd5) pixels += 1;
      }
      return pixels;
    });
    if (painted < 100) fail(`the hourly chart drew ${painted} pixels of the successes' colour`);
  }
  const endpointRow = page.getByRole('row', { name: /^GET \/leads/ });
  if (!/\b1\b/.test(await endpointRow.innerText())) {
    fail(`requests by endpoint: "${await endpointRow.innerText()}"`);
  }
  // More traffic for the chart: successes on several endpoints, validation errors (limit=0),
  // and past the key's limit of 20 a minute, rate-limited answers.
  const routes = ['/contacts', '/leads', '/events', '/leads?limit=0', '/leads', '/conversations'];
  for (let i = 1; i < RATE_LIMIT + 5; i++) await asKey(routes[i % routes.length]);
  const limited = page.getByRole('group', { name: 'Rate-limit hits', exact: true });
  if (!(await eventually(async () => /^Today\s+25\s/.test(await today.innerText())
                         && /\s5\s/.test(await limited.innerText()), 10_000))) {
    fail(`after 25 requests the Usage page shows "${await today.innerText()}" and `
         + `"${await limited.innerText()}"`);
  }
  await audit(page, 'usage');
  await shoot(page, 'usage');
  const keySelect = page.getByLabel('Key', { exact: true });
  const keyOption = await keySelect.getByRole('option', { name: /^Integration/ }).getAttribute('value');
  await keySelect.selectOption(keyOption);
  if (!(await eventually(async () => page.url().includes(`key=${keyOption}`)
                         && /^Today\s+25\s/.test(await today.innerText()), 5_000))) {
    fail(`choosing the key shows "${await today.innerText()}"`);
  }

  log('revoke the key');
  await goTo(page, 'API keys', 'keys');
  await keyRow.getByRole('button', { name: 'Revoke', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “Integration”?' });
  await dialog.waitFor();
  await audit(page, 'keys, revoke dialog');
  await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click();
  if (!(await eventually(async () => (await keyRow.innerText()).includes('Revoked'), 5_000))) {
    fail(`after Revoke the key's row says "${await keyRow.innerText()}"`);
  }
  const revoked = await asKey('/leads');
  if (revoked.status !== 401) fail(`GET /leads with the revoked key answered ${revoked.status}`);

  log('a webhook endpoint: test event, deliveries, redeliver');
  await goTo(page, 'Webhooks', 'webhooks');
  await page.getByLabel('Endpoint URL', { exact: true }).fill(hookUrl);
  if (!(await page.getByRole('checkbox', { name: 'All event types', exact: true }).isChecked())) {
    fail('a new endpoint does not default to all event types');
  }
  await page.getByLabel('Description', { exact: true }).fill('Local receiver');
  await page.getByRole('button', { name: 'Add endpoint', exact: true }).click();
  const secretField = page.getByRole('textbox', { name: 'Signing secret', exact: true });
  await secretField.waitFor();
  const secret = await secretField.inputValue();
  if (!secret.startsWith('whsec_')) fail(`the page shows no signing secret but "${secret}"`);
  const endpoint = page.getByRole('article', { name: hookUrl, exact: true });
  await endpoint.waitFor();
  await endpoint.getByRole('button', { name: 'Send test event', exact: true }).click();
  const isTest = (request) => JSON.parse(request.body).type === 'webhook.test';
  if (!(await eventually(() => received.some(isTest), 10_000))) {
    fail('the receiver never got the webhook.test event');
  }
  const test = received.find(isTest);
  if (test) {
    try {
      const event = new Webhook(secret).verify(test.body, test.headers);
      if (JSON.stringify(event.data) !== '{}') fail(`webhook.test carries data ${JSON.stringify(event.data)}`);
    } catch (error) {
      fail(`the test event does not verify with the secret the page showed: ${error.message}`);
    }
  }
  const delivery = endpoint.getByRole('row', { name: /^webhook\.test/ });
  if (!(await eventually(async () => (await delivery.innerText()).includes('Succeeded'), 10_000))) {
    fail(`the test delivery is listed as "${await delivery.innerText().catch(() => 'nothing')}"`);
  }
  await delivery.getByRole('button', { name: 'Attempts', exact: true }).click();
  const attempts = endpoint.getByRole('table', { name: /^Attempts to deliver webhook\.test/ });
  const attemptRows = attempts.getByRole('row', { name: /HTTP 200/ });
  if (!(await eventually(async () => (await attemptRows.count()) === 1, 5_000))) {
    fail(`the attempts table has ${await attemptRows.count()} rows with HTTP 200, not 1`);
  }
  const before = received.length;
  await delivery.getByRole('button', { name: 'Redeliver', exact: true }).click();
  if (!(await eventually(() => received.slice(before).some(
    (request) => request.headers['webhook-id'] === test?.headers['webhook-id']), 10_000))) {
    fail('Redeliver did not send the test event again');
  }
  if (!(await eventually(async () => (await attemptRows.count()) === 2, 10_000))) {
    fail(`after Redeliver the attempts table has ${await attemptRows.count()} rows, not 2`);
  }
  await audit(page, 'webhooks');
  await shoot(page, 'webhooks');

  log('a lead created through the API on the Events page');
  const writer = await cli('keys', 'create', '--workspace', workspace, '--name', 'Events writer',
                           '--scopes', 'read,write');
  const created = await fetch(`${base}/api/v1/external/leads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${writer.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ visitor_name: 'Grace Hopper', visitor_company: 'Eckert–Mauchly' }),
  });
  if (created.status !== 201) fail(`POST /leads answered ${created.status}`);
  const lead = (await created.json()).data;
  await goTo(page, 'Events', 'events');
  const leadEvent = page.getByRole('listitem').filter({ hasText: 'Grace Hopper' });
  await leadEvent.getByText('lead.created', { exact: true }).click();
  if (!(await eventually(async () => (await leadEvent.innerText()).includes(`"id": "${lead.id}"`),
                         3_000))) {
    fail('the lead.created event does not open to its JSON');
  }
  if ((await page.getByRole('listitem').filter({ hasText: 'webhook.test' }).count()) !== 0) {
    fail('the webhook.test event is listed among the events');
  }
  const typeSelect = page.getByLabel('Type', { exact: true });
  await typeSelect.selectOption('contact.*');
  if (!(await eventually(async () => (await leadEvent.count()) === 0
                         && (await page.getByText('No contact.* events').count()) > 0, 5_000))) {
    fail('filtering by contact.* still lists the lead, or says nothing');
  }
  await typeSelect.selectOption('lead.created');
  await leadEvent.getByText('lead.created', { exact: true }).click();
  await audit(page, 'events');
  await shoot(page, 'events');

  log('sign out ends the session');
  await goTo(page, 'API keys', 'keys');
  await shoot(page, 'keys');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${base}/dashboard/sign-in`);
  const afterSignOut = await desktop.request.get(`${base}/dashboard/api/session`);
  if (afterSignOut.status() !== 401) {
    fail(`GET /dashboard/api/session after signing out answered ${afterSignOut.status()}`);
  }
  await page.goto(`${base}/dashboard/keys`);
  if (page.url() !== `${base}/dashboard/sign-in`) fail(`/dashboard/keys after signing out: ${page.url()}`);

  log('every page at a phone\'s width');
  const phone = await checked.newContext({ viewport: PHONE });
  phone.setDefaultTimeout(10_000);
  const small = await phone.newPage();
  await small.goto(onThisServer(other.setup_url));
  await checkPhone(small, 'setup');
  await small.goto(`${base}/dashboard/sign-in`);
  await checkPhone(small, 'sign-in');
  await signIn(small);
  await settled(small);
  await checkPhone(small, 'keys');
  for (const [link, name] of [['Usage', 'usage'], ['Webhooks', 'webhooks'], ['Events', 'events']]) {
    await goTo(small, link, name);
    await checkPhone(small, name);
  }
} catch (error) {
  fail(error.stack ?? String(error));
} finally {
  clearTimeout(guard);
  await browser?.close();
  server?.kill('SIGTERM');
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}

log(`done; screenshots in ${outDir}`);
if (failures.list.length > 0) {
  console.error(`leadline's output:\n${serverOutput().split('\n').slice(-40).join('\n')}`);
}
failures.exit('dashboard: every page works by keyboard and by accessible names, with no '
              + 'serious axe violation, nothing from another origin and no console error');
