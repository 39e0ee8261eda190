#!/usr/bin/env node
// Contract check: do recorded API responses match docs/openapi.yaml?
//
//   node tools/openapi/check-responses.mjs [--spec docs/openapi.yaml] RESPONSES.jsonl|-
//
// Each input line is one response:
//   {"method":"GET","path":"/api/v1/external/leads?limit=5","status":200,
//    "content_type":"application/json; charset=utf-8","body":"<raw response body text>"}
// (`content_type` and `headers` may be omitted; `path` may carry a query string; further members
// are ignored.)
//
// For every line under /api/v1/external the path is matched to a path template of the document
// (exact paths first, then templates such as /leads/{id} segment by segment), the operation to
// the method, the response to the status (exact, then a range such as 4XX, then `default`), the
// media type to content_type, and the parsed body is validated with Ajv (JSON Schema 2020-12,
// ajv-formats) against the response schema, $refs resolved through the whole document. A 405 for
// a method the path does not have is checked against components.responses.MethodNotAllowed when
// the document defines it. When a line also has "headers" (an object of response header names to
// values), the documented headers are checked too: required ones must be present, and present
// ones must match their schema (integer-looking values are compared as numbers). Lines outside
// /api/v1/external are skipped.
//
// Exit status: 0 when every response matches, 1 when any does not (or an operation or status is
// undocumented), 2 on usage errors or an unreadable document.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const API_PREFIX = '/api/v1/external';
const MAX_PRINTED = 50;
const MAX_ERRORS_PER_RESPONSE = 8;
const DOC_ID = 'https://leadline.invalid/openapi.json';
const HERE = dirname(fileURLToPath(import.meta.url));

function usage(message) {
  if (message) console.error(`check-responses: ${message}`);
  console.error('usage: check-responses.mjs [--spec OPENAPI.yaml] RESPONSES.jsonl|-');
  process.exit(2);
}

function parseArgs(argv) {
  let spec = resolve(HERE, '../../docs/openapi.yaml');
  let input;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--spec') {
      if (i + 1 >= argv.length) usage('--spec needs a file');
      spec = argv[++i];
    } else if (a === '-h' || a === '--help') {
      usage();
    } else if (input === undefined) {
      input = a;
    } else {
      usage(`unexpected argument ${a}`);
    }
  }
  if (input === undefined) usage('no responses file given');
  return { spec, input };
}

// JSON Pointer escaping (RFC 6901).
const escapePointer = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function getPointer(doc, pointer) {
  if (!pointer.startsWith('#/')) throw new Error(`only local $refs are supported: ${pointer}`);
  let node = doc;
  for (const raw of pointer.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`unresolvable $ref ${pointer}`);
    }
    node = node[key];
  }
  return node;
}

// Follows an OpenAPI-level $ref chain (responses, media types); returns the object and the JSON
// Pointer (without '#') of where it lives in the document.
function follow(doc, node, pointer) {
  const seen = new Set();
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) throw new Error(`$ref cycle at ${node.$ref}`);
    seen.add(node.$ref);
    pointer = node.$ref.slice(1);
    node = getPointer(doc, node.$ref);
  }
  return { node, pointer };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function buildPathIndex(doc) {
  const templates = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const segments = template.split('/');
    const params = segments.filter((s) => /^\{[^}]+\}$/.test(s)).length;
    templates.push({ template, segments, params, item });
  }
  // Exact (parameter-free) templates win, then the ones with fewer parameters.
  templates.sort((a, b) => a.params - b.params);
  return templates;
}

function matchPath(templates, path) {
  const segments = path.split('/');
  for (const t of templates) {
    if (t.segments.length !== segments.length) continue;
    const ok = t.segments.every((s, i) =>
      /^\{[^}]+\}$/.test(s) ? segments[i].length > 0 : s === segments[i],
    );
    if (ok) return t;
  }
  return undefined;
}

function pickResponse(responses, status) {
  const code = String(status);
  if (responses[code]) return code;
  const range = `${code[0]}XX`;
  for (const key of Object.keys(responses)) if (key.toUpperCase() === range) return key;
  if (responses.default) return 'default';
  return undefined;
}

const essence = (ct) => (ct ?? '').split(';')[0].trim().toLowerCase();

function pickMediaType(content, contentType) {
  const keys = Object.keys(content);
  if (!contentType) return keys.length === 1 ? keys[0] : keys.find((k) => isJson(k));
  const want = essence(contentType);
  const exact = keys.find((k) => essence(k) === want);
  if (exact) return exact;
  const [type] = want.split('/');
  return keys.find((k) => essence(k) === `${type}/*`) ?? keys.find((k) => essence(k) === '*/*');
}

const isJson = (mediaType) => /^application\/(?:[\w.+-]+\+)?json$/.test(essence(mediaType));

// leadline's e-mail rule (docs/api.md, "Validation rules"): letters of any script are allowed in the domain, so the
// JSON Schema format is idn-email, which ajv-formats does not provide.
const LABEL = '[\\p{L}\\p{M}0-9](?:[\\p{L}\\p{M}0-9-]{0,61}[\\p{L}\\p{M}0-9])?';
const IDN_EMAIL = new RegExp(`^[^\\s\\p{Cc}@]{1,64}@(?:${LABEL}\\.)+${LABEL}$`, 'u');
const isIdnEmail = (s) => [...s].length <= 254 && IDN_EMAIL.test(s);

function makeAjv(doc) {
  const ajv = new Ajv2020({
    strict: false, // the document carries OpenAPI keywords next to the schemas
    allErrors: true,
    validateFormats: true,
  });
  addFormats(ajv);
  ajv.addFormat('idn-email', { type: 'string', validate: isIdnEmail });
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const cache = new Map();
  return (schemaPointer) => {
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#${schemaPointer}` });
      cache.set(schemaPointer, validate);
    }
    return validate;
  };
}

function formatAjvErrors(errors, root = '(body)') {
  const lines = errors
    .slice(0, MAX_ERRORS_PER_RESPONSE)
    .map((e) => {
      const where = e.instancePath || root;
      const extra =
        e.keyword === 'additionalProperties'
          ? ` '${e.params.additionalProperty}'`
          : e.keyword === 'enum'
            ? `: ${JSON.stringify(e.params.allowedValues)}`
            : e.keyword === 'const'
              ? `: ${JSON.stringify(e.params.allowedValue)}`
              : '';
      return `${where} ${e.message}${extra}  [${e.schemaPath.replace(DOC_ID, '')}]`;
    });
  if (errors.length > MAX_ERRORS_PER_RESPONSE) {
    lines.push(`… ${errors.length - MAX_ERRORS_PER_RESPONSE} more schema errors`);
  }
  return lines;
}

function main() {
  const { spec, input } = parseArgs(process.argv.slice(2));
  let doc;
  try {
    doc = YAML.parse(readFileSync(spec, 'utf8'), { maxAliasCount: -1 });
  } catch (e) {
    console.error(`check-responses: cannot read ${spec}: ${e.message}`);
    process.exit(2);
  }
  if (!doc || typeof doc !== 'object' || !doc.paths) {
    console.error(`check-responses: ${spec} is not an OpenAPI document`);
    process.exit(2);
  }
  let text;
  try {
    text = readFileSync(input === '-' ? 0 : input, 'utf8');
  } catch (e) {
    console.error(`check-responses: cannot read ${input}: ${e.message}`);
    process.exit(2);
  }

  const templates = buildPathIndex(doc);
  const validatorFor = makeAjv(doc);
  const mismatches = [];
  const covered = new Set();
  let checked = 0;
  let skipped = 0;

  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n].trim();
    if (raw === '') continue;
    const where = `line ${n + 1}`;
    let rec;
    try {
      rec = JSON.parse(raw);
    } catch (e) {
      checked++;
      mismatches.push({ where, head: 'unparsable input line', details: [e.message] });
      continue;
    }
    const method = String(rec.method ?? '').toUpperCase();
    const fullPath = String(rec.path ?? '');
    const path = fullPath.split('?')[0].split('#')[0];
    const status = Number(rec.status);
    const head = `${method} ${fullPath} → ${rec.status}`;

    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      skipped++;
      continue;
    }
    checked++;
    const fail = (...details) => mismatches.push({ where, head, details });
    if (!method || !Number.isInteger(status)) {
      fail('input line needs "method", "path" and an integer "status"');
      continue;
    }

    const match = matchPath(templates, path);
    let response;
    let responsePointer;
    if (!match) {
      // Unknown paths under the prefix get the API's 404 envelope (documented in the
      // introduction and as components.responses.UnknownPath); anything else is a mismatch.
      const notFound = doc.components?.responses?.UnknownPath;
      if (status !== 404 || !notFound) {
        fail(`unknown operation: no path of the document matches ${path}`);
        continue;
      }
      ({ node: response, pointer: responsePointer } = follow(
        doc,
        notFound,
        '/components/responses/UnknownPath',
      ));
    }
    const pathPointer = match ? `/paths/${escapePointer(match.template)}` : '';
    const operation = match ? match.item[method.toLowerCase()] : undefined;
    if (!match) {
      // checked against NotFound below
    } else if (!operation || !HTTP_METHODS.includes(method.toLowerCase())) {
      const fallback = doc.components?.responses?.MethodNotAllowed;
      if (status === 405 && fallback) {
        ({ node: response, pointer: responsePointer } = follow(
          doc,
          fallback,
          '/components/responses/MethodNotAllowed',
        ));
      } else {
        fail(`unknown operation: ${method} is not documented for ${match.template}`);
        continue;
      }
    } else {
      covered.add(`${method} ${match.template}`);
      const responses = operation.responses ?? {};
      const key = pickResponse(responses, status);
      if (key === undefined) {
        fail(
          `status ${status} is not documented for ${operation.operationId ?? `${method} ${match.template}`}` +
            ` (documented: ${Object.keys(responses).join(', ')})`,
        );
        continue;
      }
      ({ node: response, pointer: responsePointer } = follow(
        doc,
        responses[key],
        `${pathPointer}/${method.toLowerCase()}/responses/${escapePointer(key)}`,
      ));
    }

    // Headers are checked only when the line records them ({"headers": {"name": "value"}}).
    if (rec.headers && typeof rec.headers === 'object' && response?.headers) {
      const got = new Map(Object.entries(rec.headers).map(([k, v]) => [k.toLowerCase(), v]));
      const problems = [];
      for (const [name, ref] of Object.entries(response.headers)) {
        if (name.toLowerCase() === 'content-type') continue; // OpenAPI ignores it too
        const { node: header, pointer: headerPointer } = follow(
          doc,
          ref,
          `${responsePointer}/headers/${escapePointer(name)}`,
        );
        const raw = got.get(name.toLowerCase());
        if (raw === undefined) {
          if (header?.required) problems.push(`header ${name} is required but missing`);
          continue;
        }
        if (!header?.schema) continue;
        const text = String(raw);
        const value = /^-?[0-9]+$/.test(text) ? Number(text) : text;
        const validate = validatorFor(`${headerPointer}/schema`);
        const typed = validate(value) || (typeof value === 'number' && validate(text));
        if (!typed) {
          problems.push(
            ...formatAjvErrors(validate.errors ?? [], '(value)').map(
              (e) => `header ${name}=${JSON.stringify(text)}: ${e}`,
            ),
          );
        }
      }
      if (problems.length > 0) fail(...problems);
    }

    const body = typeof rec.body === 'string' ? rec.body : rec.body == null ? '' : JSON.stringify(rec.body);
    const content = response?.content;
    const hasContent = content && Object.keys(content).length > 0;
    if (body.length === 0) {
      // A HEAD response never has a body, whatever the GET would carry.
      if (hasContent && method !== 'HEAD') {
        fail('empty body, but the document describes content for this response');
      }
      continue;
    }
    if (!hasContent) {
      fail('a body was sent, but the document describes no content for this response');
      continue;
    }
    const mediaKey = pickMediaType(content, rec.content_type);
    if (mediaKey === undefined) {
      fail(
        `content type ${JSON.stringify(rec.content_type)} is not documented` +
          ` (documented: ${Object.keys(content).join(', ')})`,
      );
      continue;
    }
    const { node: media, pointer: mediaPointer } = follow(
      doc,
      content[mediaKey],
      `${responsePointer}/content/${escapePointer(mediaKey)}`,
    );
    if (!media?.schema) continue; // no schema: any body of that media type matches
    if (!isJson(mediaKey)) continue; // only JSON bodies are validated
    let value;
    try {
      value = JSON.parse(body);
    } catch (e) {
      fail(`body is not valid JSON: ${e.message}`);
      continue;
    }
    let validate;
    try {
      validate = validatorFor(`${mediaPointer}/schema`);
    } catch (e) {
      console.error(`check-responses: cannot compile the schema at ${mediaPointer}/schema: ${e.message}`);
      process.exit(2);
    }
    if (validate(value)) continue;
    // For a oneOf of alternatives (list or single record), report the closest alternative only.
    let errors = validate.errors ?? [];
    let note;
    const alternatives = media.schema.oneOf ?? media.schema.anyOf;
    if (Array.isArray(alternatives) && alternatives.length > 1) {
      const keyword = media.schema.oneOf ? 'oneOf' : 'anyOf';
      let best;
      alternatives.forEach((alt, i) => {
        const v = validatorFor(`${mediaPointer}/schema/${keyword}/${i}`);
        if (!v(value)) {
          const errs = v.errors ?? [];
          if (!best || errs.length < best.errors.length) best = { errors: errs, alt, i };
        }
      });
      if (best && best.errors.length < errors.length) {
        errors = best.errors;
        note = `matches none of the ${keyword} alternatives; closest: ${best.alt.$ref ?? `#${best.i}`}`;
      }
    }
    fail(...(note ? [note] : []), ...formatAjvErrors(errors));
  }

  mismatches.slice(0, MAX_PRINTED).forEach((m) => {
    console.log(`MISMATCH ${m.where}: ${m.head}`);
    for (const d of m.details) console.log(`    ${d}`);
  });
  if (mismatches.length > MAX_PRINTED) {
    console.log(`… ${mismatches.length - MAX_PRINTED} more mismatches not shown`);
  }
  const operations = [];
  for (const t of templates) {
    for (const m of HTTP_METHODS) if (t.item[m]) operations.push(`${m.toUpperCase()} ${t.template}`);
  }
  const uncovered = operations.filter((o) => !covered.has(o));
  if (uncovered.length > 0) console.log(`not covered: ${uncovered.join(', ')}`);
  if (skipped > 0) console.log(`skipped: ${skipped} responses outside ${API_PREFIX}`);
  console.log(
    `contract: ${checked} responses checked, ${covered.size} operations covered, ${mismatches.length} mismatches`,
  );
  if (checked === 0) {
    // Nothing recorded means the recording broke, not that every response matched.
    console.error('contract: no responses under the API prefix were recorded');
    process.exit(1);
  }
  process.exit(mismatches.length > 0 ? 1 : 0);
}

main();
