import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { LiveStreams, type LiveStreamsOptions, type StreamSource } from '../src/streams/live-streams';
import { createStreamServer, type StreamServer } from '../src/streams/stream-server';

const run = promisify(execFile);

let tmp: string;
let clip: string;
let envs = 0;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'live-streams-'));
  clip = join(tmp, 'camera.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15', '-t', '4'],
    ...['-c:v', 'libx264', '-g', '15', '-pix_fmt', 'yuv420p', '-y', clip],
  ]);
}, 20_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Env {
  streams: LiveStreams;
  port: number;
  dir: string;
  /** Every ffmpeg started, in order: its pid and arguments (a wrapper script records them). */
  ffmpegRuns(): Promise<{ pid: number; args: string }[]>;
  /** Everything logged, one JSON line per call. */
  logged: string[];
}

/** LiveStreams behind its HTTP server; cameras 1 and 2 play the test clip, camera 3 is a missing file. */
async function start(options: Partial<LiveStreamsOptions> = {}, sources: Record<number, StreamSource> = {}): Promise<Env> {
  const root = join(tmp, `env-${++envs}`);
  const dir = join(root, 'live');
  const runs = join(root, 'ffmpeg-runs.log');
  const ffmpegPath = join(root, 'ffmpeg');
  await mkdir(root, { recursive: true });
  await writeFile(ffmpegPath, `#!/bin/sh\necho "$$ $*" >> '${runs}'\nexec ffmpeg "$@"\n`);
  await chmod(ffmpegPath, 0o755);
  const logged: string[] = [];
  const record = (obj: object, msg?: string) => logged.push(JSON.stringify({ ...obj, msg }));
  const logger = { info: record, warn: record, debug: record };
  const known: Record<number, StreamSource> = { 1: { url: clip }, 2: { url: clip }, 3: { url: join(tmp, 'missing.mp4') }, ...sources };
  const streams = new LiveStreams({ dir, ffmpegPath, resolve: async (id) => known[id] ?? null, logger, ...options });
  let server: StreamServer;
  try {
    server = await createStreamServer(streams, { port: 0, logger });
  } catch (err) {
    await streams.stop();
    throw err;
  }
  cleanups.push(async () => {
    await server.close();
    await streams.stop();
  });
  const ffmpegRuns = async () =>
    (await readFile(runs, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ pid: Number(line.slice(0, line.indexOf(' '))), args: line.slice(line.indexOf(' ') + 1) }));
  return { streams, port: server.port, dir, ffmpegRuns, logged };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET of exactly this path: fetch would resolve `..` before sending it. */
function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function probe(media: Buffer, name: string): Promise<{ codec_name: string; width: number; height: number }> {
  const file = join(tmp, `${envs}-${name}`);
  await writeFile(file, media);
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[] }).streams[0];
}

function segmentsOf(playlist: string): string[] {
  return playlist.split('\n').filter((line) => /^seg-\d+\.ts$/.test(line));
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await delay(50);
  }
}

function errorOf(answer: Answer): string {
  return (JSON.parse(answer.body.toString()) as { error: string }).error;
}

describe('live streams', () => {
  it('serves a playlist (once the first segment is written) whose segments are the camera H.264 picture', async () => {
    const env = await start();
    const playlist = await get(env.port, '/live/1/index.m3u8');
    expect(playlist.status).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('no-store');
    const text = playlist.body.toString();
    expect(text).toMatch(/^#EXTM3U/);
    expect(text).not.toContain('#EXT-X-ENDLIST');
    const segments = segmentsOf(text);
    expect(segments.length).toBeGreaterThan(0);

    const segment = await get(env.port, `/live/1/${segments[0]}`);
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(await probe(segment.body, 'segment.ts')).toEqual({ codec_name: 'h264', width: 320, height: 180 });
    expect(env.streams.stats()).toEqual({ streams: 1, watching: 1 });
  });

  it('starts one ffmpeg for a camera however many ask at once', async () => {
    const env = await start();
    const answers = await Promise.all([
      get(env.port, '/live/1/index.m3u8'),
      get(env.port, '/live/1/index.m3u8'),
      get(env.port, '/live/1/index.m3u8'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(env.streams.stats().streams).toBe(1);
    expect(await env.ffmpegRuns()).toHaveLength(1);
  });

  it('keeps a watched stream and stops it within 2 s of the last request', async () => {
    const env = await start({ idleStopMs: 1000 });
    // Asked for every 400 ms for 2 s (twice idleStopMs): the same ffmpeg keeps running.
    for (let i = 0; i < 5; i++) {
      expect((await get(env.port, '/live/1/index.m3u8')).status).toBe(200);
      await delay(400);
    }
    const last = await get(env.port, '/live/1/index.m3u8');
    const lastAt = Date.now();
    expect(last.status).toBe(200);
    const runs = await env.ffmpegRuns();
    expect(runs).toHaveLength(1);

    await until(() => env.streams.stats().streams === 0 && !existsSync(join(env.dir, '1')), 3000);
    const stoppedAfter = Date.now() - lastAt;
    expect(stoppedAfter).toBeGreaterThanOrEqual(800);
    // Soon after (the sweep runs every quarter of the idle time; a busy machine may add a little).
    expect(stoppedAfter).toBeLessThan(5000);
    expect(running(runs[0].pid)).toBe(false);
    expect((await get(env.port, `/live/1/${segmentsOf(last.body.toString())[0]}`)).status).toBe(404);
  });

  it('takes a JPEG snapshot from the camera, and from the newest segment while streaming', async () => {
    const env = await start();
    const cold = await get(env.port, '/snapshot/1');
    expect(cold.status).toBe(200);
    expect(cold.headers['content-type']).toBe('image/jpeg');
    expect(cold.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await probe(cold.body, 'cold.jpg')).toMatchObject({ width: 320, height: 180 });
    expect(env.streams.stats().streams).toBe(0);

    expect((await get(env.port, '/live/1/index.m3u8')).status).toBe(200);
    const live = await get(env.port, '/snapshot/1');
    expect(live.status).toBe(200);
    expect(live.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await probe(live.body, 'live.jpg')).toMatchObject({ width: 320, height: 180 });
    const runs = await env.ffmpegRuns();
    expect(runs.map((r) => r.args)).toEqual([
      expect.stringContaining(`-i ${clip} -frames:v 1`),
      expect.stringContaining('-f hls'),
      expect.stringMatching(new RegExp(`-i ${join(env.dir, '1')}/seg-\\d+\\.ts -frames:v 1`)),
    ]);
  });

  it('refuses unknown cameras, odd names and streams beyond maxStreams', async () => {
    const env = await start({ maxStreams: 1 });
    for (const path of ['/live/9/index.m3u8', '/snapshot/9']) {
      const answer = await get(env.port, path);
      expect([path, answer.status, errorOf(answer)]).toEqual([path, 404, 'unknown-camera']);
    }
    expect((await get(env.port, '/live/1/index.m3u8')).status).toBe(200);
    await writeFile(join(env.dir, 'x'), 'not a segment');
    for (const path of [
      '/live/1/seg-../../x',
      '/live/1/seg-..%2F..%2Fx',
      '/live/1/..%2Fx',
      '/live/1/seg-1.ts.bak',
      '/live/1/seg-99999.ts',
      '/live/0/index.m3u8',
      '/live/-1/index.m3u8',
      '/live/1.5/index.m3u8',
      '/live/abc/index.m3u8',
      '/snapshot/01',
      '/live/1',
    ]) {
      const answer = await get(env.port, path);
      expect([path, answer.status, errorOf(answer)]).toEqual([path, 404, 'not-found']);
    }

    const second = await get(env.port, '/live/2/index.m3u8');
    expect([second.status, errorOf(second)]).toEqual([503, 'too-many-streams']);
    const secondSnapshot = await get(env.port, '/snapshot/2');
    expect([secondSnapshot.status, errorOf(secondSnapshot)]).toEqual([503, 'too-many-streams']);
    // The running camera's snapshot needs no second connection.
    expect((await get(env.port, '/snapshot/1')).status).toBe(200);
    expect(env.streams.stats().streams).toBe(1);
  });

  it('answers 502 for a source that fails, and leaves nothing running', async () => {
    // A start time far beyond the failure: the answer comes when ffmpeg exits, not when the start time runs out.
    const env = await start({ startTimeoutMs: 20_000 });
    const started = Date.now();
    const answer = await get(env.port, '/live/3/index.m3u8');
    expect([answer.status, errorOf(answer)]).toEqual([502, 'unavailable']);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(env.streams.stats().streams).toBe(0);
    expect(existsSync(join(env.dir, '3'))).toBe(false);
    const runs = await env.ffmpegRuns();
    expect(runs).toHaveLength(1);
    expect(running(runs[0].pid)).toBe(false);
    expect((await get(env.port, '/snapshot/3')).status).toBe(502);
  });

  describe('a camera that accepts a connection and sends nothing', () => {
    let silent: TcpServer;
    afterEach(() => new Promise<void>((resolve) => silent.close(() => resolve())));

    it('is given up after startTimeoutMs, its ffmpeg stopped', async () => {
      silent = createTcpServer(() => undefined).listen(0, '127.0.0.1');
      await new Promise((resolve) => silent.once('listening', resolve));
      const { port } = silent.address() as { port: number };
      const env = await start({ startTimeoutMs: 1500 }, { 4: { url: `tcp://127.0.0.1:${port}` } });
      const started = Date.now();
      const answer = await get(env.port, '/live/4/index.m3u8');
      expect([answer.status, errorOf(answer)]).toEqual([502, 'unavailable']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
      expect(Date.now() - started).toBeLessThan(1500 + 8000);
      expect(env.streams.stats().streams).toBe(0);
      const [ffmpeg] = await env.ffmpegRuns();
      expect(running(ffmpeg.pid)).toBe(false);
    });
  });

  it('puts the login into the RTSP address for ffmpeg only, never into logs or errors', async () => {
    // A port nobody listens on: the connection is refused at once.
    const closed = createTcpServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const env = await start({}, { 5: { url: `rtsp://127.0.0.1:${port}/stream1`, username: 'admin', password: 'p@ss w0rd' } });

    const answer = await get(env.port, '/live/5/index.m3u8');
    expect([answer.status, errorOf(answer)]).toEqual([502, 'unavailable']);
    const [ffmpeg] = await env.ffmpegRuns();
    expect(ffmpeg.args).toContain('-rtsp_transport tcp -timeout 5000000 ');
    expect(ffmpeg.args).toContain(` -i rtsp://admin:p%40ss%20w0rd@127.0.0.1:${port}/stream1 `);
    const logs = env.logged.join('\n');
    // ffmpeg took its options and tried the camera.
    expect(logs).toMatch(/Connection refused/);
    expect(logs).not.toMatch(/p%40ss|p@ss|admin/);
    await expect(env.streams.playlist(5)).rejects.toThrow(
      expect.objectContaining({ name: 'StreamUnavailable', message: expect.not.stringMatching(/p%40ss|p@ss|admin|127\.0\.0\.1/) }),
    );
  });
});
