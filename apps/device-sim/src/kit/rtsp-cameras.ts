import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { existsSync } from 'node:fs';
import net from 'node:net';

// Simulated IP cameras for the CCTV pages: one RTSP/1.0 server on one TCP port plays many cameras, each at its own path,
// so the video service (ffmpeg over RTSP with TCP interleaving) and its online probe (a DESCRIBE with credentials)
// meet them as they meet real cameras. Each camera's picture comes from an ffmpeg that runs only while someone watches:
// it encodes a test pattern with the camera's title and clock burnt in and sends RTP to a local UDP socket, from which
// every packet goes to the camera's viewers as an interleaved frame. Only what those clients use is spoken: no UDP
// transport, no PAUSE, no Digest authentication.

/** How the server runs; every field has a default. */
export interface RtspCameraServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default): an ephemeral port, read back from `port`. */
  port?: number;
  /** Default 'ffmpeg' (from the PATH). */
  ffmpegPath?: string;
  /** Picture size and rate of every camera; default 640×360 at 15 frames a second. */
  width?: number;
  height?: number;
  fps?: number;
  /** How long a camera's ffmpeg keeps running after its last viewer left, so a quick reconnect finds it warm. Default 5000. */
  idleStopMs?: number;
  /** Font of the burnt-in text; when the file is missing, ffmpeg picks a font of its own (fontconfig). */
  fontFile?: string;
}

/** One simulated camera. */
export interface RtspCamera {
  /** Burnt into the picture (and the SDP's session name). */
  title: string;
  /** Basic authentication credentials every request but OPTIONS must carry. */
  username: string;
  password: string;
  /** Offline: the camera behaves like a dead device, closing every connection that names it without an answer. */
  online: boolean;
}

export interface RtspCameraStats {
  cameras: number;
  /** ffmpeg processes running. */
  sources: number;
  /** Connections playing a camera. */
  clients: number;
}

const DEFAULT_FONT = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
/** Requests every camera answers, as OPTIONS lists them (ffmpeg keeps a session alive with GET_PARAMETER when listed). */
const PUBLIC_METHODS = 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER';
/** What SETUP answers: one track, RTP on channel 0 and RTCP on channel 1 of the RTSP connection. */
const TRANSPORT = 'RTP/AVP/TCP;unicast;interleaved=0-1';
const PAYLOAD_TYPE = 96;
/** Seconds a session lives without a request, as SETUP tells the client (ffmpeg sends a keep-alive at half of it). */
const SESSION_TIMEOUT_S = 60;
/** A request head larger than this is no RTSP client's: the connection is closed. */
const MAX_HEAD_BYTES = 16 * 1024;
/** A viewer whose unsent data grows past this cannot keep up with the stream: it is dropped, not buffered for. */
const MAX_BACKLOG_BYTES = 2 * 1024 * 1024;
/** The wait before an ffmpeg that died under its viewers is started again (once). */
const RESTART_DELAY_MS = 1000;
/** The grace an ffmpeg gets to end on SIGTERM before SIGKILL. */
const KILL_AFTER_MS = 2000;
/** Room for a keyframe's burst of RTP packets, which ffmpeg sends all at once. */
const UDP_RECEIVE_BUFFER = 1024 * 1024;

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  454: 'Session Not Found',
  455: 'Method Not Valid in This State',
  461: 'Unsupported Transport',
  501: 'Not Implemented',
};

interface RtspRequest {
  method: string;
  uri: string;
  /** Header names in lower case. */
  headers: Map<string, string>;
}

/**
 * An RTSP server playing simulated IP cameras on one TCP port (`rtsp://host:port/<camera path>`); see the file's head.
 * `setCamera` and `removeCamera` change the cameras at any time.
 */
export class RtspCameraServer {
  private readonly cameras = new Map<string, RtspCamera>();
  private readonly connections = new Set<RtspConnection>();
  /** The running source of each camera that has one. */
  private readonly sources = new Map<string, CameraSource>();
  /** Every source until its ffmpeg and UDP socket are closed, including ones ended and still closing. */
  private readonly openSources = new Set<CameraSource>();
  private readonly server: net.Server;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly host: string,
    private readonly settings: Required<Omit<RtspCameraServerOptions, 'host' | 'port' | 'fontFile'>> & { fontFile: string | null },
  ) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /** Starts the server; resolves once it listens. */
  static async start(options: RtspCameraServerOptions = {}): Promise<RtspCameraServer> {
    const fontFile = options.fontFile ?? DEFAULT_FONT;
    const server = new RtspCameraServer(options.host ?? '127.0.0.1', {
      ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
      width: options.width ?? 640,
      height: options.height ?? 360,
      fps: options.fps ?? 15,
      idleStopMs: options.idleStopMs ?? 5000,
      fontFile: existsSync(fontFile) ? fontFile : null,
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.server.listen(options.port ?? 0, server.host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The cameras' base URL, `rtsp://host:port`; a camera is at `${url}/${path}`. */
  get url(): string {
    return `rtsp://${this.authority()}`;
  }

  /**
   * Adds or changes the camera at `path` (the URL path without the leading slash, such as `CAM-001`). A camera taken
   * offline or removed loses its viewers at once; new credentials hold from the next request; a new title shows from
   * the camera's next ffmpeg (when nobody watched for `idleStopMs`).
   */
  setCamera(path: string, camera: RtspCamera): void {
    this.cameras.set(path, { ...camera });
    if (!camera.online) this.disconnect(path);
  }

  removeCamera(path: string): void {
    this.cameras.delete(path);
    this.disconnect(path);
  }

  stats(): RtspCameraStats {
    let sources = 0;
    for (const source of this.openSources) if (source.running) sources++;
    let clients = 0;
    for (const source of this.sources.values()) clients += source.viewers;
    return { cameras: this.cameras.size, sources, clients };
  }

  /** Closes every connection and ends every ffmpeg; resolves once all of them are closed. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      for (const connection of this.connections) connection.close();
      for (const source of this.sources.values()) source.end();
      await Promise.all([closed, ...[...this.openSources].map((source) => source.closed)]);
    })();
    return this.stopping;
  }

  private authority(): string {
    return `${net.isIPv6(this.host) ? `[${this.host}]` : this.host}:${this.port}`;
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    const connection = new RtspConnection(socket, (request) => this.answer(connection, request));
    this.connections.add(connection);
    socket.on('close', () => {
      this.connections.delete(connection);
      this.unwatch(connection);
    });
  }

  /** Closes the connections of the camera at `path` and ends its ffmpeg: what a camera going dark does to its viewers. */
  private disconnect(path: string): void {
    for (const connection of this.connections) if (connection.session?.path === path) connection.close();
    this.sources.get(path)?.end();
  }

  private answer(connection: RtspConnection, request: RtspRequest): void {
    const reply = (status: number, headers?: Record<string, string>, body?: string) =>
      connection.reply(request.headers.get('cseq'), status, headers, body);
    if (request.method === 'OPTIONS' && request.uri === '*') return reply(200, { Public: PUBLIC_METHODS });
    const target = parseTarget(request.uri);
    if (!target) return reply(400);
    const path = this.cameraPath(target.path);
    const camera = path === undefined ? undefined : this.cameras.get(path);
    if (path === undefined || !camera) return reply(404);
    if (!camera.online) return connection.close();
    if (request.method !== 'OPTIONS' && !authorized(request.headers.get('authorization'), camera)) {
      return reply(401, { 'WWW-Authenticate': 'Basic realm="camera"' });
    }
    const session = request.headers.get('session')?.split(';')[0].trim();
    if (session && session !== connection.session?.id) return reply(454);

    switch (request.method) {
      case 'OPTIONS':
        return reply(200, { Public: PUBLIC_METHODS });
      case 'DESCRIBE': {
        const base = `rtsp://${target.authority ?? this.authority()}/${target.rawPath}/`;
        return reply(200, { 'Content-Type': 'application/sdp', 'Content-Base': base }, this.sdp(camera));
      }
      case 'SETUP': {
        // A connection carries one session, of one camera: what ffmpeg and the probe open.
        if (connection.session && connection.session.path !== path) return reply(455);
        const offers = (request.headers.get('transport') ?? '').split(',');
        if (!offers.some((offer) => /^RTP\/AVP\/TCP(;|$)/i.test(offer.trim()))) return reply(461);
        connection.session ??= { id: randomBytes(8).toString('hex').toUpperCase(), path };
        return reply(200, { Transport: TRANSPORT });
      }
      case 'PLAY':
        if (connection.session?.path !== path) return reply(455);
        // Answered first: the viewer's first RTP frame must come after the answer on the same socket.
        reply(200, { Range: 'npt=0.000-' });
        return this.watch(connection, path);
      case 'TEARDOWN':
        this.unwatch(connection);
        reply(200);
        connection.session = null;
        return;
      case 'GET_PARAMETER':
        return reply(200);
      default:
        return reply(501);
    }
  }

  /**
   * The camera path a request's URL path names: the camera's own, or its track's (`<path>/trackID=0`, the SETUP URL
   * the SDP's `Content-Base` and `a=control` make); undefined when there is no such camera.
   */
  private cameraPath(urlPath: string): string | undefined {
    if (this.cameras.has(urlPath)) return urlPath;
    const track = /^(.*)\/trackID=0$/.exec(urlPath);
    return track && this.cameras.has(track[1]) ? track[1] : undefined;
  }

  /** The session description DESCRIBE answers: one H.264 track whose SPS and PPS come in-band, at every keyframe. */
  private sdp(camera: RtspCamera): string {
    const addressType = net.isIPv6(this.host) ? 'IP6' : 'IP4';
    return [
      'v=0',
      `o=- ${Date.now()} 1 IN ${addressType} ${this.host}`,
      `s=${camera.title.replace(/[\r\n]+/g, ' ')}`,
      `c=IN ${addressType} ${addressType === 'IP6' ? '::' : '0.0.0.0'}`,
      't=0 0',
      'a=control:*',
      `m=video 0 RTP/AVP ${PAYLOAD_TYPE}`,
      `a=rtpmap:${PAYLOAD_TYPE} H264/90000`,
      `a=fmtp:${PAYLOAD_TYPE} packetization-mode=1`,
      `a=framerate:${this.settings.fps}`,
      'a=control:trackID=0',
      '',
    ].join('\r\n');
  }

  /** Makes the connection a viewer of the camera at `path`, starting the camera's ffmpeg if nobody watched. */
  private watch(connection: RtspConnection, path: string): void {
    let source = this.sources.get(path);
    if (!source) {
      const title = this.cameras.get(path)!.title;
      const created: CameraSource = new CameraSource(
        this.settings.ffmpegPath,
        (udpPort) => encoderArgs({ ...this.settings, title }, udpPort),
        this.settings.idleStopMs,
        () => {
          if (this.sources.get(path) === created) this.sources.delete(path);
        },
      );
      source = created;
      this.sources.set(path, source);
      this.openSources.add(source);
      void source.closed.then(() => this.openSources.delete(created));
    }
    connection.watching = source;
    source.add(connection);
  }

  private unwatch(connection: RtspConnection): void {
    connection.watching?.remove(connection);
    connection.watching = null;
  }
}

/**
 * One client's TCP connection: reads its requests, however the bytes are cut, and skips the interleaved frames
 * (`$`, channel, 16-bit length, data) a client sends on it after PLAY, its RTCP receiver reports.
 */
class RtspConnection {
  session: { id: string; path: string } | null = null;
  watching: CameraSource | null = null;
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly socket: net.Socket,
    private readonly onRequest: (request: RtspRequest) => void,
  ) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    // A reset by the client is its way of leaving; 'close' follows.
    socket.on('error', () => {});
  }

  /** Answers the request numbered `cseq` (absent from a request that cannot be read). */
  reply(cseq: string | undefined, status: number, headers: Record<string, string> = {}, body = ''): void {
    const lines = [`RTSP/1.0 ${status} ${STATUS_TEXT[status]}`];
    if (cseq !== undefined) lines.push(`CSeq: ${cseq}`);
    if (this.session) lines.push(`Session: ${this.session.id};timeout=${SESSION_TIMEOUT_S}`);
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    this.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`));
  }

  /** Sends one interleaved frame of the camera's stream; a viewer too far behind is dropped instead. */
  send(frame: Buffer): void {
    if (this.socket.writableLength > MAX_BACKLOG_BYTES) this.close();
    else this.write(frame);
  }

  close(): void {
    this.socket.destroy();
  }

  private write(data: Buffer): void {
    if (this.socket.writable) this.socket.write(data);
  }

  private read(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    // Not writable: closed, or ended after a request it could not read, when nothing after it is answered.
    while (this.pending.length && this.socket.writable) {
      if (this.pending[0] === 0x24) {
        if (this.pending.length < 4) return;
        const end = 4 + this.pending.readUInt16BE(2);
        if (this.pending.length < end) return;
        this.pending = this.pending.subarray(end);
        continue;
      }
      const headEnd = this.pending.indexOf('\r\n\r\n');
      if (headEnd < 0) {
        if (this.pending.length > MAX_HEAD_BYTES) this.close();
        return;
      }
      const request = parseHead(this.pending.subarray(0, headEnd).toString('latin1'));
      const bodyLength = Number(request?.headers.get('content-length') ?? 0);
      if (!request || !Number.isSafeInteger(bodyLength) || bodyLength < 0) {
        // Nothing after a request that cannot be read can be trusted to start a request.
        this.reply(request?.headers.get('cseq'), 400);
        this.socket.end();
        return;
      }
      const end = headEnd + 4 + bodyLength;
      if (this.pending.length < end) return;
      this.pending = this.pending.subarray(end);
      this.onRequest(request);
    }
  }
}

/** `METHOD URI RTSP/1.0` and its headers; null when the head is not an RTSP request. */
function parseHead(head: string): RtspRequest | null {
  const [requestLine, ...headerLines] = head.split('\r\n');
  const match = /^([A-Z_]+) (\S+) RTSP\/1\.0$/.exec(requestLine);
  if (!match) return null;
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { method: match[1], uri: match[2], headers };
}

/**
 * What a request URI names: its authority without credentials (absent from a bare path), its path as sent and the
 * same URL-decoded, both without the slashes around them and without a query string (`?channel=1`, which real
 * cameras take and these ignore). Null when the URI is not one.
 */
function parseTarget(uri: string): { authority: string | null; rawPath: string; path: string } | null {
  const absolute = /^rtsp:\/\/([^/?#]*)([^?#]*)/i.exec(uri);
  const relative = uri.startsWith('/') ? /^[^?#]*/.exec(uri) : null;
  const rawPath = (absolute ? absolute[2] : relative?.[0])?.replace(/^\/+|\/+$/g, '');
  if (rawPath === undefined) return null;
  try {
    return { authority: absolute ? absolute[1].replace(/^.*@/, '') : null, rawPath, path: decodeURIComponent(rawPath) };
  } catch {
    return null;
  }
}

/** A camera with no login configured is open to anyone (as some are on closed video networks). */
function authorized(header: string | undefined, camera: RtspCamera): boolean {
  if (camera.username === '' && camera.password === '') return true;
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  const credentials = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  return colon >= 0 && credentials.slice(0, colon) === camera.username && credentials.slice(colon + 1) === camera.password;
}

/**
 * One camera's picture while anyone watches: an ffmpeg sending RTP (and its RTCP sender reports) to a UDP socket of
 * its own, each packet passed on to every viewer as an interleaved frame. Ended `idleStopMs` after its last viewer
 * left, or when its ffmpeg dies a second time under viewers (the first time it is started again after a second).
 */
class CameraSource {
  /** Resolves once the ffmpeg has exited and the UDP socket is closed. */
  readonly closed: Promise<void>;
  private readonly clients = new Set<RtspConnection>();
  private readonly udp = dgram.createSocket({ type: 'udp4', recvBufferSize: UDP_RECEIVE_BUFFER });
  private child: ChildProcess | null = null;
  private childExited: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private restarted = false;
  private ended = false;

  constructor(
    private readonly ffmpegPath: string,
    private readonly args: (udpPort: number) => string[],
    private readonly idleStopMs: number,
    private readonly onEnd: () => void,
  ) {
    const udpClosed = new Promise<void>((resolve) => this.udp.once('close', resolve));
    // An error of the socket (it cannot bind) leaves nothing to show: the viewers go as from a failed camera.
    this.udp.on('error', () => this.end());
    this.udp.on('message', (packet) => this.forward(packet));
    this.udp.bind(0, '127.0.0.1', () => this.spawn());
    this.closed = udpClosed.then(() => this.childExited);
  }

  get running(): boolean {
    return this.child !== null;
  }

  get viewers(): number {
    return this.clients.size;
  }

  add(client: RtspConnection): void {
    clearTimeout(this.idleTimer);
    this.clients.add(client);
  }

  remove(client: RtspConnection): void {
    if (!this.clients.delete(client) || this.clients.size > 0 || this.ended) return;
    this.idleTimer = setTimeout(() => this.end(), this.idleStopMs);
  }

  /** Drops the viewers left, stops the ffmpeg (SIGKILL if SIGTERM does not do within 2 s) and closes the socket. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    clearTimeout(this.idleTimer);
    clearTimeout(this.restartTimer);
    for (const client of this.clients) client.close();
    this.clients.clear();
    const child = this.child;
    if (child) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      void this.childExited.then(() => clearTimeout(kill));
    }
    this.udp.close();
  }

  private spawn(): void {
    if (this.ended) return;
    const child = spawn(this.ffmpegPath, this.args(this.udp.address().port), { stdio: 'ignore' });
    this.child = child;
    // A spawn that fails (no such program) reports here and then closes like an exit.
    child.on('error', () => {});
    this.childExited = new Promise((resolve) =>
      child.once('close', () => {
        this.child = null;
        resolve();
        this.exited();
      }),
    );
  }

  /** An ffmpeg exit not asked for: started again once if someone watches, else the source is over. */
  private exited(): void {
    if (this.ended) return;
    if (this.clients.size === 0 || this.restarted) return this.end();
    this.restarted = true;
    this.restartTimer = setTimeout(() => (this.clients.size ? this.spawn() : this.end()), RESTART_DELAY_MS);
  }

  private forward(packet: Buffer): void {
    if (this.clients.size === 0) return;
    // RTCP packet types are 200–204 in the second byte, where RTP has its marker bit and payload type 96.
    const channel = packet[1] >= 200 && packet[1] <= 204 ? 1 : 0;
    const frame = Buffer.allocUnsafe(4 + packet.length);
    frame[0] = 0x24;
    frame[1] = channel;
    frame.writeUInt16BE(packet.length, 2);
    packet.copy(frame, 4);
    for (const client of this.clients) client.send(frame);
  }
}

/**
 * ffmpeg's arguments for one camera: a moving test pattern with the local time at the top left (over the pattern's own
 * counter) and the title at the bottom right, where cameras put them; H.264 as cameras send it (baseline, no B-frames)
 * with a keyframe every second and SPS and PPS before each, so a new viewer shows a picture within a second; as RTP to
 * 127.0.0.1:`udpPort`, its RTCP sender reports to the same port.
 */
function encoderArgs(o: { width: number; height: number; fps: number; fontFile: string | null; title: string }, udpPort: number): string[] {
  const fontSize = Math.max(12, Math.round(o.height / 18));
  const font = o.fontFile ? `fontfile=${filterValue(o.fontFile)}:` : '';
  const text = (value: string, x: string, y: string) =>
    `drawtext=${font}text=${filterValue(value)}:fontsize=${fontSize}:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=8:x=${x}:y=${y}`;
  // drawtext expands `%{…}` and takes `\` as an escape in its text: a title shows literally with both escaped.
  const title = o.title.replace(/[\\%]/g, (c) => `\\${c}`);
  const overlay = `${text('%{localtime}', '8', '8')},${text(title, 'w-tw-8', 'h-th-8')}`;
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error'],
    ...['-re', '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${o.fps}`],
    ...['-vf', overlay],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p'],
    ...['-g', String(o.fps), '-bf', '0', '-x264-params', 'repeat-headers=1'],
    ...['-an', '-payload_type', String(PAYLOAD_TYPE), '-f', 'rtp', `rtp://127.0.0.1:${udpPort}?rtcpport=${udpPort}`],
  ];
}

/**
 * A filter option's value as it must stand in a filtergraph, which unescapes it twice: once as the graph is split
 * into filters (`\ ' [ ] , ;`), once as the filter's options are split (`\ ' :`).
 */
function filterValue(value: string): string {
  const escape = (text: string, specials: string) => text.replace(new RegExp(`[\\\\${specials}]`, 'g'), (c) => `\\${c}`);
  return escape(escape(value, "':"), "'\\[\\],;");
}
