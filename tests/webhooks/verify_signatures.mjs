// Every webhook a real `leadline serve` sends verifies with the official Standard Webhooks
// library (the `standardwebhooks` npm package, pinned in tools/package.json): an implementation
// independent of leadline's and of the C++ suites' own HMAC check. One endpoint on a Node HTTP
// receiver gets every API-driven event type (lead and contact created, updated, deleted; the
// conversation.updated of an imported conversation, and the import's own events); each delivery
// must verify with the endpoint's secret and carry the event of GET /events. After a secret
// rotation the next delivery must verify with the new secret and with the old one, and never
// with an unrelated secret.
//
// usage: node verify_signatures.mjs LEADLINE_BINARY TOOLS_DIR
//        (or LEADLINE_BINARY and LEADLINE_TOOLS_DIR in the environment)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { startServer } from '../support/leadline_server.mjs';

const binaryArg = process.argv[2] ?? process.env.LEADLINE_BINARY;
const toolsArg = process.argv[3] ?? process.env.LEADLINE_TOOLS_DIR;
if (!binaryArg || !toolsArg) {
  console.error('usage: node verify_signatures.mjs LEADLINE_BINARY TOOLS_DIR');
  process.exit(2);
}
const binary = path.resolve(binaryArg);
const toolsDir = path.resolve(toolsArg);
// standardwebhooks is pinned in tools/package.json; resolve it from there.
let Webhook;
try {
  ({ Webhook } = createRequire(path.join(toolsDir, 'package.json'))('standardwebhooks'));
} catch (error) {
  console.error(`FAIL: the standardwebhooks package is not installed under ${toolsDir}/node_modules ` +
                `(run \`npm ci\` in tools/): ${error.message}`);
  process.exit(1);
}

const failures = [];
const fail = (what) => failures.push(what);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

// A whole-run guard: a server that never delivers must fail the test, not hang it.
const guard = setTimeout(() => {
  console.error('FAIL: the test did not finish within 90 s');
  process.exit(1);
}, 90_000);

const dataDir = mkdtempSync(path.join(tmpdir(), 'leadline-webhooks-'));
const db = `sqlite:${path.join(dataDir, 'leadline.db')}`;

// `leadline ARGS... --db DB --json`, parsed.
async function cli(...args) {
  const { stdout } = await run(binary, [...args, '--db', db, '--json'], { timeout: 30_000 });
  return JSON.parse(stdout);
}

// The receiver: records the raw body and headers of every request, answers 204.
const received = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ method: req.method, url: req.url, headers: req.headers,
                    body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
});

let server;
let serverOutput = () => '';
try {
  const workspace = (await cli('workspaces', 'create', '--name', 'Webhooks')).id;
  const key = (await cli('keys', 'create', '--workspace', workspace, '--name', 'verifier',
                         '--scopes', 'read,write')).key;

  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks/leadline`;

  const started = startServer(binary, ['--db', db, '--webhook-allow-private', '127.0.0.0/8',
                                       '--webhook-allow-http', '--webhook-retry-schedule',
                                       '200ms,400ms']);
  server = started.server;
  serverOutput = started.output;
  const base = `${await started.ready}/api/v1/external`;

  // One API call: JSON in, the parsed envelope out; a status other than `expect` fails the run.
  async function api(method, target, body, expect) {
    const response = await fetch(`${base}${target}`, {
      method,
      headers: { Authorization: `Bearer ${key}`,
                 ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expect) {
      throw new Error(`${method} ${target} answered ${response.status}, expected ${expect}: ${text}`);
    }
    return JSON.parse(text);
  }

  // Polls GET /events until it holds n events; returns them (oldest first).
  async function eventsWhen(n) {
    for (let i = 0; i < 100; i += 1) {
      const events = (await api('GET', '/events?limit=100', undefined, 200)).data;
      if (events.length >= n) return events;
      await sleep(100);
    }
    throw new Error(`GET /events did not reach ${n} events`);
  }

  // Waits until a request carrying each event id arrived; returns them by id.
  async function deliveriesOf(events) {
    const ids = new Set(events.map((e) => e.id));
    for (let i = 0; i < 150; i += 1) {
      const got = new Map();
      for (const r of received) {
        if (ids.has(r.headers['webhook-id']) && !got.has(r.headers['webhook-id'])) {
          got.set(r.headers['webhook-id'], r);
        }
      }
      if (got.size === ids.size) return got;
      await sleep(100);
    }
    const missing = [...ids].filter((id) => !received.some((r) => r.headers['webhook-id'] === id));
    throw new Error(`no delivery arrived for ${missing.join(', ')} (${received.length} received)`);
  }

  const endpoint = (await api('POST', '/webhooks', { url: hookUrl }, 201)).data;
  const secret = endpoint.secret;
  assert.match(secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);

  // Every API-driven change.
  const lead = (await api('POST', '/leads', { visitor_name: 'Ada' }, 201)).data;
  await api('PATCH', `/leads?id=${lead.id}`, { pipeline_stage: 'qualified' }, 200);
  await api('DELETE', `/leads?id=${lead.id}`, undefined, 200);
  const contact = (await api('POST', '/contacts', { first_name: 'Grace' }, 201)).data;
  await api('PATCH', `/contacts?id=${contact.id}`, { last_name: 'Hopper' }, 200);
  await api('DELETE', `/contacts?id=${contact.id}`, undefined, 200);

  // A conversation comes from `leadline import` (with its contact and message events).
  const when = (offsetMs) => new Date(Date.now() + offsetMs).toISOString();
  const importFile = path.join(dataDir, 'conversation.jsonl');
  writeFileSync(importFile, `${JSON.stringify({
    type: 'conversation', source: 'widget', status: 'open', tags: [], created_at: when(-3000),
    visitor: { first_name: 'Visitor', email: 'visitor@example.com' },
    agent_id: null, department_id: null,
    messages: [{ sender_type: 'visitor', content: 'Hi', attachments: null, status: 'delivered',
                 created_at: when(-2000), sender_name: 'Visitor' }],
  })}\n`);
  await cli('import', '--workspace', workspace, importFile);
  const conversation = (await api('GET', '/conversations', undefined, 200)).data[0];
  await api('PATCH', `/conversations?id=${conversation.id}`, { status: 'archived' }, 200);

  const expectedTypes = ['lead.created', 'lead.updated', 'lead.deleted', 'contact.created',
                         'contact.updated', 'contact.deleted', 'conversation.created',
                         'message.created', 'conversation.updated'];
  const events = await eventsWhen(10);
  const types = new Set(events.map((e) => e.type));
  for (const type of expectedTypes) {
    if (!types.has(type)) fail(`no ${type} event in GET /events`);
  }

  const delivered = await deliveriesOf(events);
  const stranger = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
  for (const event of events) {
    const request = delivered.get(event.id);
    const label = `${event.type} ${event.id}`;
    if (request.method !== 'POST') fail(`${label}: method ${request.method}`);
    if (request.url !== '/hooks/leadline') fail(`${label}: sent to ${request.url}`);
    let payload;
    try {
      payload = new Webhook(secret).verify(request.body, request.headers);
    } catch (error) {
      fail(`${label}: standardwebhooks rejected it: ${error.message}\n` +
           `headers: ${JSON.stringify(request.headers)}\nbody: ${request.body}`);
      continue;
    }
    try {
      assert.deepEqual(payload, event);
    } catch {
      fail(`${label}: the body is not the event of GET /events:\n${request.body}\n` +
           `${JSON.stringify(event)}`);
    }
    try {
      stranger.verify(request.body, request.headers);
      fail(`${label}: it verified with an unrelated secret`);
    } catch {
      // expected
    }
  }

  // Rotation: the new secret signs first, the old one beside it during the grace period.
  const rotated = (await api('POST', `/webhooks/rotate-secret?id=${endpoint.id}`, undefined,
                             200)).data;
  if (rotated.id !== endpoint.id) fail(`rotate-secret answered id ${rotated.id}`);
  if (rotated.secret === secret) fail('rotate-secret returned the old secret');
  await api('POST', '/leads', { visitor_name: 'After rotation' }, 201);
  const afterRotation = (await eventsWhen(11)).slice(10);
  const request = (await deliveriesOf(afterRotation)).get(afterRotation[0].id);
  const signatures = request.headers['webhook-signature'].split(' ');
  if (signatures.length !== 2) fail(`after rotation: ${signatures.length} signatures`);
  for (const [name, key] of [['new', rotated.secret], ['old', secret]]) {
    try {
      new Webhook(key).verify(request.body, request.headers);
    } catch (error) {
      fail(`after rotation, the ${name} secret does not verify: ${error.message}`);
    }
  }
  // The first entry alone is the new secret's signature.
  try {
    new Webhook(rotated.secret).verify(request.body,
                                       { ...request.headers, 'webhook-signature': signatures[0] });
  } catch (error) {
    fail(`after rotation, the first signature is not the new secret's: ${error.message}`);
  }
  try {
    stranger.verify(request.body, request.headers);
    fail('after rotation, it verified with an unrelated secret');
  } catch {
    // expected
  }
  console.log(`verified ${events.length + 1} deliveries with standardwebhooks`);
} catch (error) {
  fail(error.stack ?? String(error));
} finally {
  server?.kill('SIGTERM');
  receiver.close();
  receiver.closeAllConnections?.();
  rmSync(dataDir, { recursive: true, force: true });
  clearTimeout(guard);
}

if (failures.length > 0) {
  for (const failure of failures) console.error(`FAIL: ${failure}`);
  const out = serverOutput();
  if (out) console.error(`server output (tail):\n${out.slice(-3000)}`);
  process.exit(1);
}
console.log('every webhook verified with the standardwebhooks library');
