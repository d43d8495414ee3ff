import { Agent, request } from 'node:http';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { workbookBuffer, type ApiClient } from '@sc/testing';
import { AccessCache } from '../src/auth/access-cache.service';
import { loadConfig } from '../src/config/app-config';
import { createUploadApp } from '../src/http-app';
import { DEMO_PASSWORD, startTestGateway, type TestGateway } from './harness';

/**
 * Fuzzes every operation of the OpenAPI documents of both ports with malformed input, and fails on any 5xx answer or
 * any 4xx answer that is not the envelope `{ code, message, data }` with a message. Every case is built in order from
 * the documents: nothing is random, so a run can be repeated as it was.
 */

/** Routes not fuzzed: they would end the session the fuzz runs in, or change the signed-in administrator's password. */
const SKIPPED = new Set([
  'GET /api/user/logout', // revokes the caller's own session
  'POST /api/user/modifyPassword', // changes the caller's own password (and revokes the caller's other sessions)
  // A player's signed screenshot upload (an image body, not a form): its refusals are in signage-screenshots.int-spec.ts.
  'PUT /api/signage/screenshot/upload',
  'POST /api/signage/screenshot/upload',
]);

/** Parallel requests at most. */
const CONCURRENCY = 8;
const HUGE = 100_000;
const FIELD_DEPTH = 5_000;
const BODY_DEPTH = 100_000;

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Field {
  name: string;
  schema: Schema;
  required: boolean;
}

type Where = 'json' | 'query' | 'form';

interface Operation {
  /** "POST /api/user/createUser" */
  key: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  baseUrl: string;
  /** Where the documented fields go: a JSON body, the query string, or a multipart form (the upload routes). */
  where: Where;
  fields: Field[];
}

/** The case classes: every operation gets every one of them at least once. */
const CLASSES = [
  'not-json',
  'text-plain',
  'wrong-type',
  'huge-string',
  'nul',
  'boundary',
  'proto',
  'deep-field',
  'extra-fields',
  'deep-body',
] as const;
type CaseClass = (typeof CLASSES)[number];

interface Case {
  cls: CaseClass;
  name: string;
  /** Query string, without the "?". */
  query?: string;
  body?: Buffer | string;
  contentType?: string;
}

interface Answer {
  status: number;
  text: string;
}

interface Problem {
  who: string;
  op: string;
  cse: string;
  status: number;
  what: string;
  excerpt: string;
}

// ---- the documents -------------------------------------------------------------------------------------------------

function resolve(doc: OpenApiDocument, schema: Schema | undefined, seen = 0): Schema {
  if (!schema || seen > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolve(doc, doc.components?.schemas?.[name], seen + 1);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => resolve(doc, s, seen + 1));
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, Schema>,
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return schema;
}

/** The operations of one document, in the document's order. */
function operationsOf(doc: OpenApiDocument, baseUrl: string, upload: boolean): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [lower, op] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      if (method !== 'GET' && method !== 'POST' && method !== 'PUT') throw new Error(`unexpected method ${method} ${path}`);
      const key = `${method} ${path}`;
      if (SKIPPED.has(key)) continue;
      const content = op.requestBody?.content ?? {};
      let where: Where = 'query';
      let fields: Field[] = (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: resolve(doc, p.schema), required: p.required === true }));
      if (content['application/json']) {
        where = 'json';
        const body = resolve(doc, content['application/json'].schema);
        const required = new Set(body.required ?? []);
        fields = Object.entries(body.properties ?? {}).map(([name, s]) => ({ name, schema: resolve(doc, s), required: required.has(name) }));
      } else if (upload) {
        // The upload routes document only that they take multipart/form-data; their fields are those of spec section 7
        // (ImportsController): `file`, `groupId` (required) and `dryRun`.
        where = 'form';
        fields = [
          { name: 'file', schema: { type: 'string', format: 'binary' }, required: true },
          { name: 'groupId', schema: { type: 'number' }, required: true },
          { name: 'dryRun', schema: { type: 'boolean' }, required: false },
        ];
      }
      // A route without fields still gets every value class, in a field it does not know.
      if (fields.length === 0) fields = [{ name: 'fuzz', schema: { type: 'string' }, required: false }];
      ops.push({ key, method, path, baseUrl, where, fields });
    }
  }
  return ops;
}

// ---- the cases -----------------------------------------------------------------------------------------------------

const FIXED_UUID = '00000000-0000-4000-8000-000000000000';

/** A plausible value for a field, so that each case changes one thing only. */
function sample(field: Field): unknown {
  const s = field.schema;
  if (s.enum?.length) return s.enum[0];
  if (s.example !== undefined) return s.example;
  switch (s.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample({ name: field.name, schema: s.items ?? {}, required: true })];
    case 'object':
      return {};
    default:
      if (s.format === 'uuid') return FIXED_UUID;
      if (/date|time|from$|to$/i.test(field.name)) return '2026-11-21';
      return 'fuzz';
  }
}

const huge = (): string => 'fuzz'.repeat(HUGE / 4);
const nested = (open: string, inner: string, close: string, depth: number): string => open.repeat(depth) + inner + close.repeat(depth);

/** Values of each class for one field, as JSON text (so that `__proto__` stays a key, not a prototype). */
function jsonValues(field: Field): { cls: CaseClass; name: string; json: string }[] {
  const own = field.schema.type === 'integer' ? 'number' : (field.schema.type ?? 'string');
  const wrong: Record<string, string> = {
    string: '"fuzz"',
    number: '12345',
    boolean: 'true',
    array: '["fuzz",1]',
    object: '{"fuzz":1}',
    null: 'null',
  };
  return [
    ...Object.entries(wrong)
      .filter(([type]) => type !== own)
      .map(([type, json]) => ({ cls: 'wrong-type' as const, name: type, json })),
    ...(own === 'array' ? [{ cls: 'wrong-type' as const, name: 'array of objects', json: '[{"fuzz":1},null]' }] : []),
    { cls: 'huge-string', name: `${HUGE} chars`, json: JSON.stringify(huge()) },
    { cls: 'nul', name: 'NUL inside', json: JSON.stringify('fuzz\u0000fuzz') },
    ...['-1', '0', '2147483647', '2147483648', '1e308', '-1e308', '1.5', '"NaN"'].map((json) => ({ cls: 'boundary' as const, name: json, json })),
    { cls: 'proto', name: '__proto__', json: '{"__proto__":{"polluted":1}}' },
    { cls: 'proto', name: 'constructor', json: '{"constructor":{"prototype":{"polluted":1}}}' },
    { cls: 'proto', name: '[__proto__]', json: '[{"__proto__":{"polluted":1}}]' },
    { cls: 'deep-field', name: `object ${FIELD_DEPTH} deep`, json: nested('{"a":', '1', '}', FIELD_DEPTH) },
    { cls: 'deep-field', name: `array ${FIELD_DEPTH} deep`, json: nested('[', '1', ']', FIELD_DEPTH) },
  ];
}

/** Values of each class for one field of a query string or a form: text only. */
function textValues(field: Field): { cls: CaseClass; name: string; text: string | string[] }[] {
  const own = field.schema.type === 'integer' ? 'number' : (field.schema.type ?? 'string');
  const wrong: Record<string, string | string[]> = {
    string: 'fuzz',
    number: '12345',
    boolean: 'true',
    array: ['1', 'fuzz'],
    object: '{"fuzz":1}',
    null: 'null',
  };
  return [
    ...Object.entries(wrong)
      .filter(([type]) => type !== own)
      .map(([type, text]) => ({ cls: 'wrong-type' as const, name: type, text })),
    { cls: 'wrong-type', name: 'empty', text: '' },
    { cls: 'huge-string', name: `${HUGE} chars`, text: huge() },
    // 100,000 characters pass a form but not a request line (16 KB): this one reaches the route.
    { cls: 'huge-string', name: '12000 chars', text: huge().slice(0, 12_000) },
    { cls: 'nul', name: 'NUL inside', text: 'fuzz\u0000fuzz' },
    ...['-1', '0', '2147483647', '2147483648', '1e308', '-1e308', '1.5', 'NaN', 'Infinity', '0x10'].map((text) => ({
      cls: 'boundary' as const,
      name: text,
      text,
    })),
    { cls: 'proto', name: '__proto__ text', text: '{"__proto__":{"polluted":1}}' },
    { cls: 'deep-field', name: `${FIELD_DEPTH} brackets`, text: nested('[', '1', ']', FIELD_DEPTH) },
  ];
}

const objectText = (entries: [string, string][]): string => `{${entries.map(([k, json]) => `${JSON.stringify(k)}:${json}`).join(',')}}`;
/** Brackets stay as they are, so a value nested 5,000 deep fits in a request line. */
const encode = (text: string): string => encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']');
const queryText = (entries: [string, string | string[]][]): string =>
  entries.flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${encode(k)}=${encode(one)}`)).join('&');

/** The body cases every operation gets, whatever its fields: a body that is no JSON object, and one nested too deep. */
function bodyCases(): Case[] {
  return [
    ...['{', '"text"', '[]', 'null', '123'].map((body) => ({
      cls: 'not-json' as const,
      name: `json ${body}`,
      body,
      contentType: 'application/json',
    })),
    { cls: 'text-plain', name: 'text/plain', body: 'username=admin', contentType: 'text/plain' },
    { cls: 'text-plain', name: 'text/plain json', body: '{"fuzz":1}', contentType: 'text/plain; charset=utf-8' },
    { cls: 'deep-body', name: `array ${BODY_DEPTH} deep`, body: nested('[', '', ']', BODY_DEPTH), contentType: 'application/json' },
    { cls: 'deep-body', name: `object ${BODY_DEPTH} deep`, body: nested('{"a":', '1', '}', BODY_DEPTH), contentType: 'application/json' },
  ];
}

async function formBody(fields: [string, string | string[] | Buffer][]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (Buffer.isBuffer(value)) form.append(name, new Blob([value]), 'fuzz.xlsx');
    else for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}

const WORKBOOK = workbookBuffer([
  ['Name', 'Code'],
  ['Fuzz 1', 'FUZZ-001'],
]);

/** Every case of one operation, in a fixed order. */
async function casesOf(op: Operation, baseline: Record<string, unknown>): Promise<Case[]> {
  const cases = bodyCases();
  const base = op.fields
    .filter((f) => f.required || f.name in baseline)
    .map((f) => [f.name, f.name in baseline ? baseline[f.name] : sample(f)] as const);
  const without = (name: string) => base.filter(([k]) => k !== name);

  if (op.where === 'json') {
    const baseJson = base.map(([k, v]) => [k, JSON.stringify(v)] as [string, string]);
    const withJson = (name: string, json: string) => [...baseJson.filter(([k]) => k !== name), [name, json] as [string, string]];
    for (const field of op.fields) {
      for (const v of jsonValues(field)) {
        cases.push({ cls: v.cls, name: `${field.name}=${v.name}`, body: objectText(withJson(field.name, v.json)), contentType: 'application/json' });
      }
      if (field.required)
        cases.push({
          cls: 'wrong-type',
          name: `${field.name} missing`,
          body: objectText(without(field.name).map(([k, v]) => [k, JSON.stringify(v)])),
          contentType: 'application/json',
        });
    }
    const extra = Array.from({ length: 200 }, (_, i) => [`fuzz${i}`, String(i)] as [string, string]);
    cases.push(
      { cls: 'extra-fields', name: 'one unknown field', body: objectText([...baseJson, ['fuzzExtra', '1']]), contentType: 'application/json' },
      { cls: 'extra-fields', name: '200 unknown fields', body: objectText([...baseJson, ...extra]), contentType: 'application/json' },
      { cls: 'extra-fields', name: 'field twice', body: objectText([...baseJson, ...baseJson]), contentType: 'application/json' },
      {
        cls: 'proto',
        name: 'top-level __proto__',
        body: objectText([['__proto__', '{"polluted":1}'], ...baseJson]),
        contentType: 'application/json',
      },
      {
        cls: 'proto',
        name: 'top-level constructor',
        body: objectText([['constructor', '{"prototype":{"polluted":1}}'], ...baseJson]),
        contentType: 'application/json',
      },
    );
    return cases;
  }

  const baseText = base.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string | string[]]);
  if (op.where === 'query') {
    const withText = (name: string, text: string | string[]) => [
      ...baseText.filter(([k]) => k !== name),
      [name, text] as [string, string | string[]],
    ];
    for (const field of op.fields) {
      for (const v of textValues(field)) cases.push({ cls: v.cls, name: `${field.name}=${v.name}`, query: queryText(withText(field.name, v.text)) });
      if (field.required)
        cases.push({ cls: 'wrong-type', name: `${field.name} missing`, query: queryText(baseText.filter(([k]) => k !== field.name)) });
      const others = queryText(baseText.filter(([k]) => k !== field.name));
      const and = others ? `${others}&` : '';
      cases.push(
        { cls: 'proto', name: `${field.name}[__proto__]`, query: `${and}${field.name}[__proto__][polluted]=1` },
        { cls: 'deep-field', name: `${field.name}[] x ${FIELD_DEPTH}`, query: `${and}${field.name}${'[]'.repeat(FIELD_DEPTH)}=1` },
      );
    }
    const all = queryText(baseText);
    const and = all ? `${all}&` : '';
    cases.push(
      { cls: 'extra-fields', name: 'one unknown parameter', query: `${and}fuzzExtra=1` },
      { cls: 'extra-fields', name: '200 unknown parameters', query: `${and}${Array.from({ length: 200 }, (_, i) => `fuzz${i}=${i}`).join('&')}` },
      {
        cls: 'proto',
        name: '__proto__ parameters',
        query: `${and}__proto__[polluted]=1&__proto__=1&constructor[prototype][polluted]=1&constructor=1`,
      },
    );
    return cases;
  }

  // A multipart form: the file is a small valid workbook unless the case is about the file field itself.
  const formWith = async (name: string, value: string | string[] | null) => {
    const fields: [string, string | string[] | Buffer][] = baseText.filter(([k]) => k !== 'file' && k !== name);
    if (value !== null) fields.push([name, value]);
    if (name !== 'file') fields.push(['file', WORKBOOK]);
    return formBody(fields);
  };
  for (const field of op.fields) {
    for (const v of textValues(field)) cases.push({ cls: v.cls, name: `${field.name}=${v.name}`, ...(await formWith(field.name, v.text)) });
    if (field.required) cases.push({ cls: 'wrong-type', name: `${field.name} missing`, ...(await formWith(field.name, null)) });
  }
  cases.push(
    { cls: 'extra-fields', name: 'one unknown field', ...(await formWith('fuzzExtra', '1')) },
    {
      cls: 'extra-fields',
      name: '30 unknown fields',
      ...(await formBody([
        ...baseText.filter(([k]) => k !== 'file'),
        ...Array.from({ length: 30 }, (_, i) => [`fuzz${i}`, String(i)] as [string, string]),
      ])),
    },
    { cls: 'proto', name: '__proto__ field', ...(await formWith('__proto__', '{"polluted":1}')) },
    { cls: 'proto', name: 'constructor field', ...(await formWith('constructor', '{"prototype":{"polluted":1}}')) },
    { cls: 'not-json', name: 'multipart without boundary', body: '--x\r\n', contentType: 'multipart/form-data' },
  );
  return cases;
}

// ---- sending -------------------------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
/**
 * Node refuses a request line and headers over 16 KB (431) and closes the connection after answering: such a request
 * goes on a connection of its own, or the next request on a kept-alive one would find it closed.
 */
const HEADER_LIMIT = 16 * 1024;

/** Sends one request with node:http, which (unlike fetch) also sends a body with a GET. */
function send(op: Operation, cse: Case, token: string): Promise<Answer> {
  const url = new URL(`${op.baseUrl}${op.path}${cse.query ? `?${cse.query}` : ''}`);
  const body = cse.body === undefined ? undefined : Buffer.isBuffer(cse.body) ? cse.body : Buffer.from(cse.body);
  const headers: Record<string, string> = { 'Accept-Language': 'en-US' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body) {
    headers['Content-Type'] = cse.contentType ?? 'application/json';
    headers['Content-Length'] = String(body.length);
  }
  return new Promise((done) => {
    const own = url.pathname.length + url.search.length > HEADER_LIMIT / 2;
    if (own) headers.Connection = 'close';
    const req = request(url, { method: op.method, headers, agent: own ? false : agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => done({ status: 0, text: `response error: ${err.message}` }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', (err) => done({ status: 0, text: `no answer: ${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
    req.end(body);
  });
}

/** Why an answer is not the envelope with a message, or null. */
function notEnvelope(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'not a JSON object';
  const { code, message } = body as Record<string, unknown>;
  if (typeof code !== 'number') return 'no numeric code';
  if (!('data' in body)) return 'no data';
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  return null;
}

async function pool<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

const excerpt = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text).replace(/\s+/g, ' ');

describe('fuzzing every documented route', () => {
  let gw: TestGateway;
  let admin: ApiClient;
  let visitor: ApiClient;
  let operations: Operation[];
  const baselines: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    // Failed sign-ins from 127.0.0.1 are counted per address too: the fuzz fails many, and must not lock the address out.
    const defaults = loadConfig({});
    gw = await startTestGateway({ login: { ...defaults.login, maxFailuresPerIp: 1_000_000 } });
    admin = await gw.signedIn('admin');
    visitor = await gw.signedIn('visitor');

    // What the fuzz may change: a user and a group of its own, never the administrator or the Administrators group.
    const [general] = await gw.db.query<{ id: number }>(`SELECT id FROM sys_group WHERE NOT is_admin ORDER BY id LIMIT 1`);
    const target = await admin.post<{ id: number }>('/api/user/createUser', {
      username: 'fuzz-target',
      password: DEMO_PASSWORD,
      groupId: general.id,
    });
    const spare = await admin.post<{ id: number }>('/api/user/groupAddOrEdit', { groupName: 'Fuzz spare', isAdmin: 0, permissionMenu: ['Home'] });
    expect([target.status, spare.status]).toEqual([200, 200]);
    // A failed sign-in counts against the user name: the fuzz signs in as nobody.
    baselines['POST /api/user/login'] = { username: 'fuzz-nobody' };
    baselines['POST /api/user/updateUser'] = { id: target.body.data.id };
    baselines['GET /api/user/groupDel'] = { id: spare.body.data.id };

    const consoleDoc = (await (await fetch(`${gw.baseUrl}/api/docs-json`)).json()) as OpenApiDocument;
    // The upload port serves no document of its own: it is built the way the console's is (createConsoleApp).
    const uploadApp = await createUploadApp(gw.config, new AccessCache(gw.config));
    const uploadDoc = SwaggerModule.createDocument(uploadApp, new DocumentBuilder().addBearerAuth().build()) as unknown as OpenApiDocument;
    await uploadApp.close();
    operations = [...operationsOf(consoleDoc, gw.baseUrl, false), ...operationsOf(uploadDoc, gw.uploadUrl, true)];
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    await gw?.close();
  });

  it('finds every route of both ports in the documents', () => {
    const keys = operations.map((o) => o.key);
    expect(keys.length).toBeGreaterThan(75);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/user/login',
        'POST /api/user/createUser',
        'GET /api/health',
        'POST /api/files/inspect',
        'POST /api/light/lightImport',
        'POST /api/light/gatewayImport',
        'POST /api/light/loopImport',
        'POST /api/lamp/lampImport',
        'POST /api/broadcast/terminalImport',
        'POST /api/broadcast/mediaUpload',
        'POST /api/led/mediaUpload',
        'POST /api/radar/radarImport',
        'POST /api/wifi/acImport',
        'POST /api/wifi/apImport',
        'POST /api/alarm/columnAddOrEdit',
        'POST /api/alarm/columnVolume',
        'POST /api/alarm/columnImport',
      ]),
    );
    for (const key of SKIPPED) expect(keys).not.toContain(key);
    expect(operations.filter((o) => o.where === 'form').map((o) => o.baseUrl)).toEqual(Array(13).fill(gw.uploadUrl));
  });

  it('answers every malformed request without a 5xx, and every refusal with the envelope', async () => {
    const started = performance.now();
    const jobs: { who: string; token: string; op: Operation; cse: Case }[] = [];
    const coverage = new Map<string, Set<CaseClass>>();
    for (const op of operations) {
      const cases = await casesOf(op, baselines[op.key] ?? {});
      coverage.set(op.key, new Set(cases.map((c) => c.cls)));
      for (const cse of cases) jobs.push({ who: 'admin', token: admin.token, op, cse });
      // A smaller sample as a visitor and with no token: the first case of each class.
      const firstOfClass = CLASSES.map((cls) => cases.find((c) => c.cls === cls)).filter((c): c is Case => c !== undefined);
      for (const cse of firstOfClass) {
        jobs.push({ who: 'visitor', token: visitor.token, op, cse });
        jobs.push({ who: 'no token', token: '', op, cse });
      }
    }
    const uncovered = [...coverage].flatMap(([key, classes]) => CLASSES.filter((c) => !classes.has(c)).map((c) => `${key}: ${c}`));
    expect(uncovered).toEqual([]);

    const problems: Problem[] = [];
    let fiveXx = 0;
    await pool(jobs, async ({ who, token, op, cse }) => {
      const answer = await send(op, cse, token);
      const record = (what: string) =>
        problems.push({ who, op: op.key, cse: `${cse.cls}: ${cse.name}`, status: answer.status, what, excerpt: excerpt(answer.text) });
      if (answer.status >= 500) {
        fiveXx++;
        record('server error');
      } else if (answer.status === 0) record('no answer');
      else if (answer.status >= 400) {
        const why = notEnvelope(answer.text);
        if (why) record(`4xx ${why}`);
      }
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `fuzz: ${jobs.length.toLocaleString('en-US')} requests over ${operations.length} routes in ${seconds} s, ${fiveXx} answers 5xx, ${problems.length} problems\n`,
    );
    // The worst first: server errors, then requests left without an answer, then refusals without the envelope.
    const rank = (p: Problem) => (p.status >= 500 ? 0 : p.status === 0 ? 1 : 2);
    problems.sort((a, b) => rank(a) - rank(b));
    const lines = problems.map((p) => `${p.op} [${p.cse}] as ${p.who}: ${p.status} ${p.what}: ${p.excerpt}`);
    if (lines.length > 0) {
      const shown = lines.slice(0, 400).join('\n');
      throw new Error(
        `${problems.length} problems (${fiveXx} answers 5xx):\n${shown}${lines.length > 400 ? `\n… and ${lines.length - 400} more` : ''}`,
      );
    }
  }, 300_000);

  it('still answers health, the administrator can still sign in, and no prototype was polluted', async () => {
    expect((await gw.client().get('/api/health')).status).toBe(200);
    expect((await admin.get('/api/user/info')).status).toBe(200);
    expect((await gw.signedIn('admin')).token).not.toBe('');
    // The gateway runs in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
