import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerAccessDir } from './broker-access';

/**
 * A stand-in for Mosquitto's reload: on SIGHUP it reads the password file, answers no CONNECT for RELOAD_MS, and, like
 * Mosquitto, forgets a SIGHUP that arrives meanwhile. Every reload is reported as a line of JSON: when it started and
 * ended, and the accounts it read.
 */
const RELOAD_MS = 400;
const FAKE_BROKER = `
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const [file, reloadMs] = [process.argv[1], Number(process.argv[2])];
let reloading = false;
const held = [];
const answer = (socket) => socket.end(Buffer.from([0x20, 2, 0, 0]));
process.on('SIGHUP', () => {
  if (reloading) return;
  reloading = true;
  const start = Date.now();
  const accounts = readFileSync(file, 'utf8').split('\\n').filter(Boolean).map((l) => l.slice(0, l.indexOf(':')));
  setTimeout(() => {
    reloading = false;
    process.stdout.write(JSON.stringify({ start, end: Date.now(), accounts }) + '\\n');
    held.splice(0).forEach(answer);
  }, reloadMs);
});
const server = createServer((socket) => socket.once('data', () => (reloading ? held.push(socket) : answer(socket))));
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
`;

interface Reload {
  start: number;
  end: number;
  accounts: string[];
}

describe('BrokerAccessDir paces the broker’s reloads', () => {
  let dir: string;
  let broker: ChildProcess;
  let url: string;
  const reloads: Reload[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sc-access-'));
    writeFileSync(join(dir, 'passwords'), '');
    broker = spawn(process.execPath, ['-e', FAKE_BROKER, join(dir, 'passwords'), String(RELOAD_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    reloads.length = 0;
    const port = await new Promise<number>((resolve) => {
      let rest = '';
      broker.stdout!.on('data', (d: Buffer) => {
        const lines = (rest + d.toString()).split('\n');
        rest = lines.pop()!;
        for (const line of lines) {
          const event = JSON.parse(line) as Reload & { port?: number };
          if (event.port) resolve(event.port);
          else reloads.push(event);
        }
      });
    });
    url = `mqtt://127.0.0.1:${port}`;
    writeFileSync(join(dir, 'mosquitto.pid'), String(broker.pid));
  });

  afterEach(async () => {
    broker.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a stream of writes: the broker reads the last one, reloads far fewer times, and serves clients between reloads', async () => {
    const access = new BrokerAccessDir(dir, { pidFile: join(dir, 'mosquitto.pid'), brokerUrl: url });
    // Twenty writes, one every 50 ms (each changes the files and asks for a reload), while a reload takes 400 ms.
    for (let i = 1; i <= 20; i++) {
      await access.write('platform-test', { accounts: [{ username: `lamp/L${i}`, password: 'p' }] });
      await new Promise((r) => setTimeout(r, 50));
    }
    await access.settled();
    await access.close();
    // The broker's report of its last reload comes on another channel than its answer: a moment for it to arrive
    // (a lost signal would bring no further reload).
    for (let waited = 0; reloads.at(-1)?.accounts[0] !== 'lamp/L20' && waited < 2000; waited += 50) await new Promise((r) => setTimeout(r, 50));

    expect(reloads.at(-1)!.accounts).toEqual(['lamp/L20']);
    expect(reloads.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < reloads.length; i++) expect(reloads[i].start - reloads[i - 1].end).toBeGreaterThanOrEqual(RELOAD_MS - 50);
  });

  it('a broker that is not running: nothing waits', async () => {
    writeFileSync(join(dir, 'mosquitto.pid'), '999999');
    const access = new BrokerAccessDir(dir, { pidFile: join(dir, 'mosquitto.pid'), brokerUrl: url });
    await access.write('platform-test', { accounts: [{ username: 'lamp/A', password: 'p' }] });
    await access.settled();
    await access.close();
    expect(reloads).toEqual([]);
  });
});
