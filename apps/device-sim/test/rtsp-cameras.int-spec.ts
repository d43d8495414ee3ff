import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@sc/testing';
import { RtspCameraServer, type RtspCamera, type RtspCameraServerOptions } from '../src/kit/rtsp-cameras';

// The simulated cameras against real ffmpeg clients, as the video service and its probe meet them.

const run = promisify(execFile);
const LOGIN = { username: 'admin', password: 'p@ss w0rd' };
const camera = (title: string, online = true): RtspCamera => ({ title, ...LOGIN, online });
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The camera's URL with a login in it, encoded as the video service writes it. */
function cameraUrl(server: RtspCameraServer, path: string, login = LOGIN): string {
  return server.url.replace('rtsp://', `rtsp://${encodeURIComponent(login.username)}:${encodeURIComponent(login.password)}@`) + `/${path}`;
}

/** Runs ffmpeg as the video service does (RTSP over TCP) with `output`; resolves with its exit code, whatever it is. */
function ffmpegClient(url: string, output: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-rtsp_transport', 'tcp', '-timeout', '5000000', '-i', url, ...output], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: performance.now() - started });
    }),
  );
}

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** An RTSP client on a raw socket: reads the answers (status, headers, body by Content-Length) and counts interleaved frames. */
class RawClient {
  /** Interleaved frames received, by channel. */
  readonly frames = new Map<number, number>();
  private buffer = Buffer.alloc(0);
  private readonly answers: Answer[] = [];

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.read());
    });
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((resolve) => socket.once('connect', resolve));
    return new RawClient(socket);
  }

  /** Answers received and not taken yet. */
  get waiting(): number {
    return this.answers.length;
  }

  async next(): Promise<Answer> {
    await waitFor(() => (this.answers.length ? true : undefined), 3000, 10);
    return this.answers.shift()!;
  }

  private read(): boolean {
    if (this.buffer[0] === 0x24) {
      if (this.buffer.length < 4 || this.buffer.length < 4 + this.buffer.readUInt16BE(2)) return false;
      this.frames.set(this.buffer[1], (this.frames.get(this.buffer[1]) ?? 0) + 1);
      this.buffer = this.buffer.subarray(4 + this.buffer.readUInt16BE(2));
      return true;
    }
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString().split('\r\n');
    const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const bodyEnd = end + 4 + Number(headers.get('content-length') ?? 0);
    if (this.buffer.length < bodyEnd) return false;
    this.answers.push({
      status: Number(/^RTSP\/1\.0 (\d{3}) /.exec(statusLine)?.[1]),
      headers,
      body: this.buffer.subarray(end + 4, bodyEnd).toString(),
    });
    this.buffer = this.buffer.subarray(bodyEnd);
    return true;
  }
}

describe('RtspCameraServer (device-sim)', () => {
  const servers: RtspCameraServer[] = [];
  let dir: string;

  async function serve(options: RtspCameraServerOptions = {}): Promise<RtspCameraServer> {
    const server = await RtspCameraServer.start(options);
    servers.push(server);
    return server;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-rtsp-cameras-'));
  });

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives an ffmpeg client a picture of the configured size', async () => {
    const server = await serve({ width: 480, height: 270, idleStopMs: 500 });
    // A title with every character the filtergraph and drawtext treat specially: a wrong escape fails the picture.
    server.setCamera('CAM-1', camera("Gate 3: North, 'A' [50%] \\ end;"));
    const out = join(dir, 'picture.jpg');

    const client = await ffmpegClient(`${cameraUrl(server, 'CAM-1')}?channel=1`, ['-frames:v', '1', '-update', '1', '-y', out]);

    expect(client).toMatchObject({ code: 0, stderr: '' });
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', out]);
    expect(JSON.parse(stdout).streams).toEqual([{ codec_name: 'mjpeg', width: 480, height: 270 }]);
  });

  it('refuses a wrong password, an unknown path and an offline camera without starting a picture', async () => {
    // A picture started by mistake would still run when the refusals end: nobody watching keeps it for a minute.
    const server = await serve({ idleStopMs: 60_000 });
    server.setCamera('CAM-1', camera('Gate 1'));
    server.setCamera('CAM-OFF', camera('Gate 2', false));
    const probe = ['-frames:v', '1', '-f', 'null', '-'];

    const [wrongPassword, unknownPath, offline] = await Promise.all([
      ffmpegClient(cameraUrl(server, 'CAM-1', { ...LOGIN, password: 'wrong' }), probe),
      ffmpegClient(cameraUrl(server, 'CAM-404'), probe),
      ffmpegClient(cameraUrl(server, 'CAM-OFF'), probe),
    ]);

    expect(wrongPassword.code).not.toBe(0);
    expect(wrongPassword.stderr).toContain('401 Unauthorized');
    expect(unknownPath.code).not.toBe(0);
    expect(unknownPath.stderr).toContain('404 Not Found');
    expect(offline.code).not.toBe(0);
    expect(server.stats()).toEqual({ cameras: 2, sources: 0, clients: 0 });
    // The same server starts a picture for the right login, and keeps it after the viewer left.
    expect((await ffmpegClient(cameraUrl(server, 'CAM-1'), probe)).code).toBe(0);
    expect(server.stats()).toEqual({ cameras: 2, sources: 1, clients: 0 });
  });

  it('shares one ffmpeg between the viewers of a camera and stops it idleStopMs after the last left', async () => {
    const server = await serve({ idleStopMs: 500 });
    server.setCamera('CAM-1', camera('Gate 1'));
    const watch = ['-frames:v', '30', '-f', 'null', '-'];

    const viewers = [ffmpegClient(cameraUrl(server, 'CAM-1'), watch), ffmpegClient(cameraUrl(server, 'CAM-1'), watch)];
    await waitFor(() => (server.stats().clients === 2 ? true : undefined), 10_000, 10);
    expect(server.stats()).toEqual({ cameras: 1, sources: 1, clients: 2 });
    const results = await Promise.all(viewers);
    const left = performance.now();

    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(server.stats()).toEqual({ cameras: 1, sources: 1, clients: 0 });
    await waitFor(() => (server.stats().sources === 0 ? true : undefined), 3000, 10);
    // Both viewers sent TEARDOWN moments before their processes ended.
    expect(performance.now() - left).toBeGreaterThan(350);
  });

  it('answers requests however they are cut, each with its CSeq', async () => {
    const server = await serve();
    server.setCamera('Streaming/Channels/101', camera('Gate 1'));
    const uri = `${server.url}/Streaming/Channels/101`;
    const auth = `Authorization: ${basic(LOGIN.username, LOGIN.password)}\r\n`;
    const client = await RawClient.connect(server.port);

    // Two requests in one write.
    client.socket.write(`OPTIONS ${uri} RTSP/1.0\r\nCSeq: 7\r\n\r\nDESCRIBE ${uri} RTSP/1.0\r\nCSeq: 8\r\n${auth}Accept: application/sdp\r\n\r\n`);
    const options = await client.next();
    expect([options.status, options.headers.get('cseq')]).toEqual([200, '7']);
    expect(options.headers.get('public')).toContain('GET_PARAMETER');
    const description = await client.next();
    expect([description.status, description.headers.get('cseq')]).toEqual([200, '8']);
    expect(description.headers.get('content-type')).toBe('application/sdp');
    expect(description.headers.get('content-base')).toBe(`${uri}/`);
    expect(description.body).toContain('m=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=fmtp:96 packetization-mode=1\r\n');

    // One request with a body, in three writes: answered once all of it is in, and only then.
    const request = `GET_PARAMETER ${uri} RTSP/1.0\r\nCSeq: 9\r\n${auth}Content-Length: 8\r\n\r\nposition`;
    for (const piece of [request.slice(0, 20), request.slice(20, -5), request.slice(-5)]) {
      expect(client.waiting).toBe(0);
      client.socket.write(piece);
      await sleep(30);
    }
    const parameter = await client.next();
    expect([parameter.status, parameter.headers.get('cseq')]).toEqual([200, '9']);

    // Refusals, in one write: no login, no such camera, a UDP transport.
    client.socket.write(
      [
        `DESCRIBE ${uri} RTSP/1.0\r\nCSeq: 10\r\n\r\n`,
        `DESCRIBE ${server.url}/Streaming/Channels/102 RTSP/1.0\r\nCSeq: 11\r\n${auth}\r\n`,
        `SETUP ${uri}/trackID=0 RTSP/1.0\r\nCSeq: 12\r\n${auth}Transport: RTP/AVP;unicast;client_port=5000-5001\r\n\r\n`,
      ].join(''),
    );
    const [noLogin, noCamera, udp] = [await client.next(), await client.next(), await client.next()];
    expect([noLogin.status, noLogin.headers.get('cseq'), noLogin.headers.get('www-authenticate')]).toEqual([401, '10', 'Basic realm="camera"']);
    expect([noCamera.status, noCamera.headers.get('cseq')]).toEqual([404, '11']);
    expect([udp.status, udp.headers.get('cseq'), udp.headers.get('session')]).toEqual([461, '12', undefined]);
    client.socket.destroy();
  });

  it('plays over the RTSP connection and skips the RTCP frames a viewer sends on it', async () => {
    const server = await serve({ idleStopMs: 500 });
    server.setCamera('CAM-1', camera('Gate 1'));
    const uri = `${server.url}/CAM-1`;
    const auth = `Authorization: ${basic(LOGIN.username, LOGIN.password)}\r\n`;
    const client = await RawClient.connect(server.port);

    client.socket.write(`SETUP ${uri}/trackID=0 RTSP/1.0\r\nCSeq: 1\r\n${auth}Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n`);
    const setup = await client.next();
    expect([setup.status, setup.headers.get('transport')]).toEqual([200, 'RTP/AVP/TCP;unicast;interleaved=0-1']);
    const session = setup.headers.get('session')!.split(';')[0];
    client.socket.write(`PLAY ${uri}/ RTSP/1.0\r\nCSeq: 2\r\n${auth}Session: ${session}\r\n\r\n`);
    expect((await client.next()).status).toBe(200);
    await waitFor(() => ((client.frames.get(0) ?? 0) > 10 ? true : undefined), 5000, 10);
    expect(server.stats()).toEqual({ cameras: 1, sources: 1, clients: 1 });

    // A receiver report, a keep-alive cut inside the next frame's header, and the rest.
    const keepAlive = `GET_PARAMETER ${uri}/ RTSP/1.0\r\nCSeq: 3\r\n${auth}Session: ${session}\r\n\r\n`;
    const report = Buffer.from([0x24, 1, 0, 8, 0x80, 201, 0, 1, 0, 0, 0, 1]);
    client.socket.write(Buffer.concat([report, Buffer.from(keepAlive), report.subarray(0, 2)]));
    await sleep(30);
    client.socket.write(
      Buffer.concat([report.subarray(2), Buffer.from(`TEARDOWN ${uri}/ RTSP/1.0\r\nCSeq: 4\r\n${auth}Session: ${session}\r\n\r\n`)]),
    );
    const [alive, teardown] = [await client.next(), await client.next()];
    expect([alive.status, alive.headers.get('cseq'), teardown.status, teardown.headers.get('cseq')]).toEqual([200, '3', 200, '4']);
    expect(server.stats().clients).toBe(0);
    client.socket.destroy();
  });
});
