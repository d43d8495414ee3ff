import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@sc/testing';
import {
  PlaybackMode,
  TERMINAL_STATE_SCHEMA,
  TerminalOccupancy,
  type TerminalDownload,
  type TerminalStateMessage,
  type TerminalTaskParams,
} from '@sc/contracts';
import type { DeviceContext } from '../kit';
import { slots } from '../kit';
import { UNKNOWN_TASK, broadcastFamily } from './broadcast.sim';

const later = '2099-01-01T00:00:00.000Z';
const validState = addFormats(new Ajv({ strict: false }), ['date-time']).compile(TERMINAL_STATE_SCHEMA);

describe('simulated broadcast terminal', () => {
  const family = broadcastFamily();
  let now = Date.parse('2026-11-21T08:00:00Z');
  const context: DeviceContext<ReturnType<typeof family.initial>> = {
    random: () => 0.5,
    clock: () => now,
    after: () => undefined,
    report: () => undefined,
    restart: () => undefined,
  };
  const report = (terminal: ReturnType<typeof family.initial>) => family.report(terminal, { code: 'BC-1', gatewayId: '' }) as TerminalStateMessage;

  it('starts idle, takes volumes, and reports what the contract declares', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    expect(report(terminal)).toMatchObject({ online: true, occupancy: TerminalOccupancy.Idle, playing: null });
    family.apply(terminal, { id: 'a', type: 'volume', params: { broadcastVolume: 80 }, expiresAt: later }, context);
    expect(report(terminal)).toMatchObject({ broadcastVolume: 80, interphoneVolume: 50 });
    expect(validState(report(terminal))).toBe(true);
  });

  it('is occupied while it plays, pauses without losing its time, and is idle when the programme ends', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    family.apply(
      terminal,
      { id: 'p', type: 'play', params: { title: 'Evening notice', taskId: 'T-7', durationSeconds: 30 }, expiresAt: later },
      context,
    );
    expect(report(terminal)).toMatchObject({
      occupancy: TerminalOccupancy.Task,
      playing: { title: 'Evening notice', taskId: 'T-7', since: new Date(now).toISOString(), paused: false },
    });
    expect(validState(report(terminal))).toBe(true);
    now += 10_000;
    family.apply(terminal, { id: 'q', type: 'pause', params: {}, expiresAt: later }, context);
    now += 60_000;
    expect(family.tick!(terminal, context)).toBe(false);
    expect(report(terminal).playing).toMatchObject({ paused: true });
    family.apply(terminal, { id: 'r', type: 'resume', params: {}, expiresAt: later }, context);
    now += 19_000;
    expect(family.tick!(terminal, context)).toBe(false);
    now += 1_000;
    expect(family.tick!(terminal, context)).toBe(true);
    expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, playing: null });
  });

  it('stops what it plays at once, and plays until stopped without a duration', () => {
    const terminal = family.initial({ code: 'BC-1' }, context);
    family.apply(terminal, { id: 'p', type: 'play', params: { title: 'Music' }, expiresAt: later }, context);
    now += 3_600_000;
    expect(family.tick!(terminal, context)).toBe(false);
    family.apply(terminal, { id: 's', type: 'stop', params: {}, expiresAt: later }, context);
    expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, playing: null });
  });

  it('starts programmes and calls by itself in a demo, and none in a test', () => {
    const busy = broadcastFamily(1);
    const terminal = busy.initial({ code: 'BC-2' }, { random: () => 0, clock: () => now });
    expect(terminal.occupancy).not.toBe(TerminalOccupancy.Idle);
    expect(validState(busy.report(terminal, { code: 'BC-2', gatewayId: '' }))).toBe(true);
    const quiet = family.initial({ code: 'BC-3' }, { random: () => 0, clock: () => now });
    expect(family.tick!(quiet, { random: () => 0, clock: () => now })).toBe(false);
  });

  it('starts and ends a programme or a call of its own at each turn of its activity, and leaves its tasks alone', () => {
    const terminal = family.initial({ code: 'BC-4' }, context);
    expect(family.act!(terminal, context)).toBe(true);
    expect(report(terminal)).toMatchObject({ playing: { since: new Date(now).toISOString(), paused: false } });
    expect(report(terminal).occupancy).not.toBe(TerminalOccupancy.Idle);
    expect(validState(report(terminal))).toBe(true);
    // Until its next turn, however long: no duration.
    now += 3_600_000;
    expect(family.tick!(terminal, context)).toBe(false);
    expect(family.act!(terminal, context)).toBe(true);
    expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, playing: null });
    terminal.fromProgramme = true;
    expect(family.act!(terminal, context)).toBe(false);
  });

  it('runs at most the given number of downloads at once, in order', async () => {
    const slot = slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      order.push(i);
      return i;
    };
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => slot(work(i))))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    await expect(slot(() => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    // A failure gives its slot back.
    expect(await slot(async () => 'next')).toBe('next');
  });

  describe('tasks', () => {
    // Two "MP3 files" served over HTTP as a gateway serves signed links.
    const files = new Map<string, Buffer>([
      ['/a.mp3', Buffer.alloc(300_000, 1)],
      ['/b.mp3', Buffer.alloc(50_000, 2)],
    ]);
    let server: Server;
    let base = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const body = files.get(req.url ?? '');
        if (!body) return void res.writeHead(404).end();
        // /b.mp3 comes slowly: a busy server.
        setTimeout(() => res.writeHead(200, { 'content-length': body.length }).end(body), req.url === '/b.mp3' ? 200 : 0);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const medium = (path: string, title: string, durationMs: number, sha256 = createHash('sha256').update(files.get(path)!).digest('hex')) => ({
      mediaId: path.length,
      title,
      url: `${base}${path}`,
      sha256,
      bytes: files.get(path)!.length,
      durationMs,
    });
    const task = (over: Partial<TerminalTaskParams>): TerminalTaskParams => ({
      taskId: 'T-1',
      title: 'Morning programme',
      priority: 5,
      mode: PlaybackMode.ListCycle,
      timeZone: 'Asia/Tokyo',
      items: [medium('/a.mp3', 'Anthem', 60_000), medium('/b.mp3', 'Notice', 30_000)],
      schedule: null,
      ...over,
    });

    /** Applies a task and waits until the terminal has its media (or gave up), with the progress it reported. */
    async function give(terminal: ReturnType<typeof family.initial>, params: TerminalTaskParams) {
      const reported: (TerminalDownload | null)[] = [];
      const ctx = { ...context, report: () => reported.push(terminal.download && { ...terminal.download }) };
      family.apply(terminal, { id: `c-${params.taskId}`, type: 'task', params, expiresAt: later }, ctx);
      await waitFor(() => (reported.at(-1)?.done || reported.at(-1)?.error ? true : undefined), 5000, 5);
      return reported;
    }

    it('downloads the media with progress, then plays a scheduled task in its period, medium by medium, on its own clock', async () => {
      now = Date.parse('2026-11-22T22:59:00Z'); // 07:59 on Monday in Tokyo
      const terminal = family.initial({ code: 'BC-1' }, context);
      const schedule = { weekdays: [], periods: [{ start: '08:00', end: '08:05' }], startDate: '2026-11-23', endDate: null };
      const progress = await give(terminal, task({ schedule, volume: 70 }));
      expect(progress[0]).toEqual({ taskId: 'T-1', received: 0, total: 350_000, done: false });
      expect(progress.at(-1)).toEqual({ taskId: 'T-1', received: 350_000, total: 350_000, done: true });
      expect(progress.length).toBeGreaterThan(2);
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, tasks: ['T-1'] });
      now += 60_000;
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal)).toMatchObject({
        occupancy: TerminalOccupancy.Task,
        broadcastVolume: 70,
        playing: { title: 'Morning programme', taskId: 'T-1', media: 'Anthem', priority: 5, paused: false },
      });
      expect(validState(report(terminal))).toBe(true);
      now += 30_000;
      expect(family.tick!(terminal, context)).toBe(false);
      now += 30_000;
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal).playing).toMatchObject({ media: 'Notice' });
      // Stopped, it waits for its next period (tomorrow 08:00).
      family.apply(terminal, { id: 'stop', type: 'stop', params: {}, expiresAt: later }, context);
      expect(family.tick!(terminal, context)).toBe(false);
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, tasks: ['T-1'] });
      now = Date.parse('2026-11-23T23:00:10Z');
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal).occupancy).toBe(TerminalOccupancy.Task);
    });

    it('lets a first-priority broadcast pre-empt the scheduled task, which plays on after it; the broadcast is then forgotten', async () => {
      now = Date.parse('2026-11-22T23:00:00Z');
      const terminal = family.initial({ code: 'BC-1' }, context);
      const schedule = { weekdays: [], periods: [{ start: '08:00', end: '09:00' }], startDate: '2026-11-23', endDate: null };
      await give(terminal, task({ schedule }));
      family.tick!(terminal, context);
      expect(report(terminal).playing).toMatchObject({ taskId: 'T-1' });
      await give(
        terminal,
        task({ taskId: 'URGENT', title: 'Storm warning', priority: 1, mode: PlaybackMode.Normal, items: [medium('/b.mp3', 'Warning', 30_000)] }),
      );
      expect(report(terminal).playing).toMatchObject({ taskId: 'URGENT', media: 'Warning', priority: 1 });
      expect(report(terminal).tasks).toEqual(['T-1', 'URGENT']);
      now += 30_000;
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Task, playing: { taskId: 'T-1' }, tasks: ['T-1'] });
      // A lower-priority broadcast waits behind it.
      await give(terminal, task({ taskId: 'LOW', priority: 9, mode: PlaybackMode.Normal }));
      expect(report(terminal).playing).toMatchObject({ taskId: 'T-1' });
      family.apply(terminal, { id: 'cancel', type: 'cancelTask', params: { taskId: 'T-1' }, expiresAt: later }, context);
      expect(report(terminal)).toMatchObject({ playing: { taskId: 'LOW' }, tasks: ['LOW'] });
    });

    it('reports a download to its end even when the immediate broadcast it was for ran out meanwhile, and does not play it', async () => {
      now = Date.parse('2026-11-22T23:00:00Z');
      const terminal = family.initial({ code: 'BC-1' }, context);
      const reported: (TerminalDownload | null)[] = [];
      const ctx = { ...context, report: () => reported.push(terminal.download && { ...terminal.download }) };
      const params = task({ taskId: 'SHORT', mode: PlaybackMode.Normal, items: [medium('/b.mp3', 'Chime', 1000)] });
      family.apply(terminal, { id: 'c-short', type: 'task', params, expiresAt: later }, ctx);
      // Its one second is over before the file is in: the terminal forgets the broadcast.
      now += 5000;
      family.tick!(terminal, context);
      expect(report(terminal).tasks).toEqual([]);
      await waitFor(() => (reported.at(-1)?.done ? true : undefined), 5000, 5);
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, download: { taskId: 'SHORT', received: 50_000, done: true } });
    });

    it('plays, pauses, resumes and stops one task when told, leaving the others as they are', async () => {
      now = Date.parse('2026-11-23T03:00:00Z'); // 12:00 on Monday in Tokyo: outside the task's period
      const terminal = family.initial({ code: 'BC-1' }, context);
      const schedule = { weekdays: [], periods: [{ start: '08:00', end: '09:00' }], startDate: '2026-11-23', endDate: null };
      await give(terminal, task({ schedule }));
      const control = (action: 'play' | 'pause' | 'resume' | 'stop', taskId = 'T-1') =>
        family.apply(terminal, { id: `${action}-${now}`, type: 'taskControl', params: { taskId, action }, expiresAt: later }, context);
      expect(control('pause', 'NOT-HELD')).toBe(UNKNOWN_TASK);
      expect(family.tick!(terminal, context)).toBe(false);
      // Played on demand: its list once (90 s), though it cycles in its periods.
      expect(control('play')).toBeUndefined();
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Task, playing: { taskId: 'T-1', media: 'Anthem', paused: false } });
      control('pause');
      expect(report(terminal).playing).toMatchObject({ paused: true });
      now += 60_000;
      // Paused it stays, medium after medium (its timetable runs on), until resumed.
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal).playing).toMatchObject({ media: 'Notice', paused: true });
      control('resume');
      expect(report(terminal).playing).toMatchObject({ media: 'Notice', paused: false });
      now += 30_000;
      expect(family.tick!(terminal, context)).toBe(true);
      expect(report(terminal)).toMatchObject({ occupancy: TerminalOccupancy.Idle, tasks: ['T-1'] });
      // In its period (tomorrow 08:00 in Tokyo) it plays; stopped, it waits for the next one; another task plays on.
      now = Date.parse('2026-11-23T23:00:00Z');
      await give(terminal, task({ taskId: 'BG', title: 'Background', priority: 9, schedule }));
      family.tick!(terminal, context);
      expect(report(terminal).playing).toMatchObject({ taskId: 'T-1' });
      control('stop');
      expect(report(terminal)).toMatchObject({ playing: { taskId: 'BG' }, tasks: ['T-1', 'BG'] });
      now += 60_000;
      family.tick!(terminal, context);
      expect(report(terminal).playing).toMatchObject({ taskId: 'BG' });
      // Played again, it takes over at once (its priority is first).
      control('play');
      expect(report(terminal).playing).toMatchObject({ taskId: 'T-1', media: 'Anthem' });
    });

    it('never plays a medium that does not match its checksum, and says why', async () => {
      now = Date.parse('2026-11-22T23:00:00Z');
      const terminal = family.initial({ code: 'BC-1' }, context);
      const progress = await give(terminal, task({ items: [medium('/a.mp3', 'Anthem', 60_000, 'f'.repeat(64))] }));
      expect(progress.at(-1)).toMatchObject({ done: false, error: 'Anthem: checksum mismatch' });
      expect(family.tick!(terminal, context)).toBe(false);
      expect(report(terminal).occupancy).toBe(TerminalOccupancy.Idle);
      const missing = await give(terminal, task({ taskId: 'T-2', items: [{ ...medium('/b.mp3', 'Gone', 1000), url: `${base}/gone.mp3` }] }));
      expect(missing.at(-1)).toMatchObject({ done: false, error: 'Gone: HTTP 404' });
    });
  });
});
