// The upload attack set against the built gateway's upload port, with the gateway's memory sampled every 5 ms:
// renamed executables, HTML and SVG with script as workbooks, 5 MB + 1, zip bombs that expand to 1 GB and 2 GB
// (honest and lying zip directories), a million rows in 4.9 MB, a wide sheet, formula cells, path traversal names, a
// sheet that inflates to 63 MB, the largest xls, lamp pole imports (xlsx and xls) refused for their cells or against the records, and
// eight workbooks (xlsx, then xls) sent at once by one user. Every hostile file must be refused with its translated
// message, nothing may stay on disk, and the gateway's peak memory while any refused file is handled (the seven
// refused at once among them) must stay under 100 MB above idle.
//
//   npx nest build gateway && npm run bench:upload-attacks
//
// It creates the database sc_bench_uploads (dropping any left over), starts the gateway on free loopback ports and
// removes everything at the end. Exit code 1 when a file is answered otherwise or memory passes the bound.
// Only loopback addresses are ever contacted. See docs/security.md.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt, log, processMemory } from './support/platform.mjs';
import * as page from './support/page-load.mjs';

const require = createRequire(import.meta.url);
const XLSX = require('@e965/xlsx');
const attacks = require('../libs/testing/src/attack-workbooks.js');

const MEMORY_BOUND_MB = Number(process.env.BENCH_MEMORY_BOUND_MB ?? 100);
const FIVE_MB = 5 * 1024 * 1024;

const workbook = (rows, bookType = 'xlsx') => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Poles');
  return XLSX.write(book, { type: 'buffer', bookType, compression: true });
};

/** Each case: a name, the file and its name, and the status and message it must get. */
async function attackSet() {
  const bomb1g = await attacks.zipBombWorkbook(1024);
  const bomb2g = await attacks.zipBombWorkbook(2048);
  return [
    {
      name: 'Windows executable renamed .xlsx',
      file: Buffer.concat([Buffer.from('MZ'), randomBytes(4096)]),
      fileName: 'poles.xlsx',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: 'HTML page named .xlsx',
      file: Buffer.from('<html><script>alert(1)</script></html>'),
      fileName: 'poles.xlsx',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: 'HTML page named .png',
      file: Buffer.from('<html><script>alert(1)</script></html>'),
      fileName: 'poles.png',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: 'SVG with a script named .xlsx',
      file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      fileName: 'poles.xlsx',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: 'SVG with a script',
      file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      fileName: 'poles.svg',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: '5 MB + 1 byte',
      file: Buffer.concat([workbook([['Name']]), Buffer.alloc(FIVE_MB, 0x20)]).subarray(0, FIVE_MB + 1),
      fileName: 'big.xlsx',
      want: [413, 'File size cannot exceed 5MB'],
    },
    {
      name: `zip bomb, 1 GB from ${fmt(bomb1g.length / 1024)} kB`,
      file: bomb1g,
      fileName: 'bomb.xlsx',
      want: [413, 'The workbook expands to more than 64 MB; split it into smaller files'],
    },
    {
      name: `zip bomb, 2 GB from ${fmt(bomb2g.length / 1024)} kB`,
      file: bomb2g,
      fileName: 'bomb.xlsx',
      want: [413, 'The workbook expands to more than 64 MB; split it into smaller files'],
    },
    {
      name: 'zip bomb, 1 GB, lying zip directory',
      file: attacks.withLyingSizes(bomb1g),
      fileName: 'bomb.xlsx',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: 'zip bomb, 2 GB, lying zip directory',
      file: attacks.withLyingSizes(bomb2g),
      fileName: 'bomb.xlsx',
      want: [400, 'Only xlsx and xls file formats are supported!'],
    },
    {
      name: '1,000,000 rows',
      file: await attacks.manyRowsWorkbook(1_000_000),
      fileName: 'rows.xlsx',
      want: [400, 'A file may hold at most 100000 rows'],
    },
    {
      name: '100 rows of 20,001 cells',
      file: await attacks.manyRowsWorkbook(100, 20_001),
      fileName: 'wide.xlsx',
      want: [400, 'A file may hold at most 2000000 cells'],
    },
    { name: 'path traversal name', file: workbook([['Name'], ['Pole 1']]), fileName: '../../../../tmp/owned.xlsx', want: [200] },
    {
      name: 'formula cells (read as text, neutralised in exports)',
      file: workbook([['Name'], ['=HYPERLINK("http://x","y")'], ['+cmd|/C calc!A0']]),
      fileName: 'formula.xlsx',
      want: [200],
    },
    { name: 'a sheet inflating to 63 MB (preview)', file: await attacks.longTextWorkbook(90_000, 600), fileName: 'long.xlsx', want: [200] },
    { name: 'the largest xls, 34,000 rows of text (preview)', file: attacks.largestXlsWorkbook(), fileName: 'poles.xls', want: [200] },
  ];
}

/** Sends one file to files/inspect, sampling the gateway's resident memory meanwhile; answers the reply and the peak. */
async function send(bench, pid, file, fileName, { path = '/api/files/inspect', fields = {} } = {}) {
  const before = processMemory(pid).rssMb;
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, processMemory(pid).rssMb);
      await sleep(5);
    }
  })();
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file]), fileName);
  const started = performance.now();
  const answer = await fetch(`${bench.uploadUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${bench.token}`, 'accept-language': 'en-US' },
  });
  const body = await answer.json().catch(() => ({}));
  const ms = performance.now() - started;
  // Memory freed by the reader thread may take a moment; the peak is what counts.
  await sleep(50);
  sampling = false;
  await sampler;
  return { status: answer.status, message: body.message, ms, peak, above: peak - before };
}

await page.runPageBench({ dbName: 'sc_bench_uploads', redisPrefix: `bench:${randomBytes(4).toString('hex')}:` }, async (bench) => {
  // A lamp pole group for the import case (device type 0 is a lamp pole).
  const groupId = await bench.prepare(
    async (c) => (await c.query(`INSERT INTO device_group (type, name) VALUES (0, 'Bench poles') RETURNING id`)).rows[0].id,
  );
  // The same rows all good but the last: every row is read and kept until the last one refuses the file. Written
  // before the gateway starts, so that the gateway does not sit idle meanwhile.
  const lastBad = workbook([['Name', 'Code'], ...Array.from({ length: 100_000 }, (_, i) => [`P${i}`, i === 99_999 ? 'P 99999!' : `P-${i}`])]);
  // Every cell good, but each new pole given a longitude and no latitude: refused against the records.
  const halfPositions = workbook([['Name', 'Code', 'Longitude'], ...Array.from({ length: 100_000 }, (_, i) => [`P${i}`, `P-${i}`, 114])]);
  const gateway = await bench.serve();
  // Idle: after start-up settles, the lowest of a few readings.
  await sleep(3000);
  let idle = Infinity;
  for (let i = 0; i < 20; i++) {
    idle = Math.min(idle, processMemory(gateway.pid).rssMb);
    await sleep(50);
  }
  log(`  gateway idle at ${fmt(idle)} MB`);
  log('');
  log('| File | Size | Answer | Time | Peak growth |');
  log('| --- | ---: | --- | ---: | ---: |');
  let failures = 0;
  let worstRefused = 0;
  const cases = await attackSet();
  // A file within every bound whose 100,000 rows all have errors: read row by row, then refused by the import.
  const badRows = workbook([['Name', 'Code', 'Longitude'], ...Array.from({ length: 100_000 }, (_, i) => [`P${i}`, `P-${i}`, 'x'])]);
  const xlsRows = (count) => workbook([['Name', 'Code', 'Longitude'], ...Array.from({ length: count }, (_, i) => [`P${i}`, `P-${i}`, 'x'])], 'biff8');
  // Refused by the lamp pole import, naming how many rows are bad.
  const poleImport = (name, file, bad, fileName = 'poles.xlsx', message = `${bad} rows have errors; nothing was imported`) => ({
    name,
    file,
    fileName,
    want: [400, message],
    path: '/api/lamp/lampImport',
    fields: { groupId: String(groupId) },
  });
  cases.push(
    poleImport('lamp pole import, 100,000 rows all with errors', badRows, 100000),
    poleImport('lamp pole import, 100,000 rows, only the last with an error', lastBad, 1),
    poleImport('lamp pole import, 100,000 rows refused against the records (half a position)', halfPositions, 100000),
    // An xls is read whole (SheetJS), so it may hold at most 5,000 rows: the most it may hold, all bad, read and refused
    // by the import; and 65,000 rows all bad (4.2 MB), refused at once as too long for an xls.
    poleImport('lamp pole import, xls of 5,000 rows all with errors', xlsRows(5_000), 5000, 'poles.xls'),
    poleImport(
      'lamp pole import, xls of 65,000 rows all with errors',
      xlsRows(65_000),
      65000,
      'poles.xls',
      'An xls file may hold at most 5000 rows; save it as xlsx to import more',
    ),
  );
  for (const attack of cases) {
    const result = await send(bench, gateway.pid, attack.file, attack.fileName, attack);
    const above = result.above;
    const [status, message] = attack.want;
    const ok = result.status === status && (message === undefined || result.message === message);
    if (result.status >= 400) worstRefused = Math.max(worstRefused, above);
    if (!ok) failures++;
    log(
      `| ${attack.name} | ${fmt(attack.file.length / 1024)} kB | ${result.status} ${result.message ?? ''}${ok ? '' : ` (WANTED ${status} ${message ?? ''})`} | ${fmt(result.ms)} ms | ${fmt(above)} MB |`,
    );
  }

  // Eight honest workbooks at once by one user: one is read, the others refused at once while it is.
  log('');
  const honest = workbook([['Name', 'Code'], ...Array.from({ length: 20_000 }, (_, i) => [`Pole ${i}`, `P-${i}`])]);
  for (const [file, fileName] of [
    [honest, 'poles.xlsx'],
    [workbook([['Name', 'Code'], ...Array.from({ length: 20_000 }, (_, i) => [`Pole ${i}`, `P-${i}`])], 'biff8'), 'poles.xls'],
  ]) {
    // Growth over the memory just before, as for each file above: what the imports before left in the heap is not the
    // burst's (it is said too, above idle).
    const before = processMemory(gateway.pid).rssMb;
    const burst = await Promise.all(Array.from({ length: 8 }, () => send(bench, gateway.pid, file, fileName)));
    const count = (status) => burst.filter((r) => r.status === status).length;
    const peak = Math.max(...burst.map((r) => r.peak));
    worstRefused = Math.max(worstRefused, peak - before);
    log(
      `  8 workbooks (${fileName}, ${fmt(file.length / 1024)} kB) at once by one user: ${count(200)} read, ${count(429)} refused (429), peak ${fmt(peak - before)} MB above the memory before (${fmt(peak - idle)} MB above idle)`,
    );
    if (count(200) < 1 || count(200) + count(429) !== 8) failures++;
  }

  const left = readdirSync(bench.uploadDir).filter((f) => f !== 'no-web');
  log(`  files left in the upload folder: ${left.length}`);
  if (left.length > 0) failures++;
  log('');
  const memoryOk = worstRefused < MEMORY_BOUND_MB;
  log(
    `Largest growth while a refused file was handled: ${fmt(worstRefused)} MB over the memory just before it (bound ${MEMORY_BOUND_MB} MB): ${memoryOk ? 'met' : 'NOT MET'}`,
  );
  const { peakMb } = processMemory(gateway.pid);
  log(`Gateway peak over the whole run (VmHWM): ${fmt(peakMb)} MB, idle ${fmt(idle)} MB`);
  if (failures > 0) log(`${failures} answer(s) other than wanted`);
  if (!memoryOk || failures > 0) process.exitCode = 1;
});
