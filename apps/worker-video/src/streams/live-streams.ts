import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Where a camera's picture comes from: an RTSP address (or, in tests, a file) and the camera's login. */
export interface StreamSource {
  url: string;
  username?: string | null;
  password?: string | null;
}

/** The part of a pino logger the streams use. */
export interface StreamLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface LiveStreamsOptions {
  /** A working directory of the service's own: each stream writes its playlist and segments to `dir/<cameraId>/`. */
  dir: string;
  /** The camera's source, or null for a camera the platform does not know. */
  resolve: (cameraId: number) => Promise<StreamSource | null>;
  ffmpegPath?: string;
  /** A stream nobody has asked for (playlist or segment) in this long is stopped. */
  idleStopMs?: number;
  /** How long a start may take until its first segment is listed. */
  startTimeoutMs?: number;
  /** At most this many ffmpeg processes hold a camera connection at once (streams, and snapshots taken from a source). */
  maxStreams?: number;
  segmentSeconds?: number;
  logger: StreamLogger;
}

/** The platform does not know the camera. */
export class UnknownCamera extends Error {
  constructor(readonly cameraId: number) {
    super(`camera ${cameraId} is unknown`);
    this.name = 'UnknownCamera';
  }
}

/** The camera's picture could not be had. The message never holds the camera's address or login. */
export class StreamUnavailable extends Error {
  constructor(
    readonly cameraId: number,
    reason: string,
  ) {
    super(`camera ${cameraId}: live picture unavailable (${reason})`);
    this.name = 'StreamUnavailable';
  }
}

/** Every camera connection the service allows is in use. */
export class TooManyStreams extends Error {
  constructor(readonly limit: number) {
    super(`all ${limit} live streams are in use`);
    this.name = 'TooManyStreams';
  }
}

/**
 * What is done to the camera's video: nothing. The H.264 the camera sends is repackaged, not transcoded, so a stream
 * costs little CPU; browsers (through hls.js and Media Source Extensions) play H.264, so cameras must be set to send
 * H.264, which is what they do unless told otherwise. An H.265 camera would stream, but not play.
 */
const VIDEO_CODEC_ARGS = ['-c:v', 'copy', '-an'] as const;
/** One JPEG of the first picture decoded, written to stdout. */
const JPEG_FRAME_ARGS = ['-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1'] as const;
/** Quiet unless something goes wrong; what ffmpeg does print is kept for the logs. */
const COMMON_ARGS = ['-hide_banner', '-nostdin', '-loglevel', 'error'] as const;

const PLAYLIST = 'index.m3u8';
const SEGMENT_NAME = /^seg-\d+\.ts$/;
const LISTED_SEGMENT = /^seg-\d+\.ts$/gm;
const POLL_MS = 100;
/** After SIGTERM ffmpeg closes its files and exits; one that does not within this long is killed. */
const KILL_GRACE_MS = 2000;
const SNAPSHOT_FROM_SOURCE_MS = 10_000;
const SNAPSHOT_FROM_SEGMENT_MS = 5000;
/** Enough of ffmpeg's complaints to say why a stream ended. */
const STDERR_TAIL_CHARS = 2000;

interface Stream {
  readonly cameraId: number;
  readonly dir: string;
  /** starting: until the first segment is listed; live: serving; ending: stopping, failed or ffmpeg gone. */
  state: 'starting' | 'live' | 'ending';
  /** Stopped on purpose (idle, or the service stopping), as opposed to ffmpeg giving up. */
  stopping: boolean;
  child: ChildProcess | null;
  /** Why ffmpeg exited, once it has. */
  exit: string | null;
  lastWatched: number;
  stderrTail: string;
  /** Settles once the stream is live, or with why it never will be. */
  readonly ready: Promise<void>;
  /** Resolves once the process is gone, the directory removed and the stream forgotten. */
  ended: Promise<void>;
}

/** How long a camera's snapshot is given again to whoever asks (the picture a second ago is the picture now). */
const SNAPSHOT_REUSE_MS = 1000;

/**
 * Cameras' live pictures for browsers: a camera's RTSP stream repackaged as HLS (which hls.js plays) by one ffmpeg
 * per camera, started when somebody first asks for it and stopped when nobody has asked for a while. However many
 * operators watch a camera, it sees one connection.
 */
export class LiveStreams {
  private readonly ffmpegPath: string;
  private readonly idleStopMs: number;
  private readonly startTimeoutMs: number;
  private readonly maxStreams: number;
  private readonly segmentSeconds: number;
  private readonly logger: StreamLogger;
  private readonly streams = new Map<number, Stream>();
  /** Snapshots being taken from a source: they hold a camera connection, so they count against maxStreams. */
  private sourceSnapshots = 0;
  /** The last snapshot of each camera (or the one being taken), reused for SNAPSHOT_REUSE_MS. */
  private readonly snapshots = new Map<number, { at: number; pending: boolean; jpeg: Promise<Buffer> }>();
  /** Every one-shot ffmpeg, to kill on stop. */
  private readonly oneShots = new Set<ChildProcess>();
  private readonly sweeper: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: LiveStreamsOptions) {
    this.ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
    this.idleStopMs = options.idleStopMs ?? 20_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 8000;
    this.maxStreams = options.maxStreams ?? 64;
    this.segmentSeconds = options.segmentSeconds ?? 1;
    this.logger = options.logger;
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, this.idleStopMs / 4));
    this.sweeper.unref();
  }

  /** The camera's current HLS playlist (starting the stream if need be). Counts as watching the stream. */
  async playlist(cameraId: number): Promise<string> {
    const stream = await this.live(cameraId);
    const text = await readFile(join(stream.dir, PLAYLIST), 'utf8').catch(() => null);
    // Only if ffmpeg died this very moment: the next request starts it again.
    if (text === null) throw new StreamUnavailable(cameraId, 'the stream ended');
    stream.lastWatched = Date.now();
    return text;
  }

  /**
   * A segment of a running stream, or null: a name that is not a segment's, a stream that is not running (a player
   * that asks for a segment first asks for the playlist), or a segment already rotated out. Counts as watching.
   */
  async segment(cameraId: number, name: string): Promise<Buffer | null> {
    const stream = this.streams.get(cameraId);
    if (!SEGMENT_NAME.test(name) || stream?.state !== 'live') return null;
    stream.lastWatched = Date.now();
    return readFile(join(stream.dir, name)).catch(() => null);
  }

  /**
   * A JPEG of the camera's live picture: from the newest segment if the camera is streaming (no second connection to
   * the camera), else from the camera itself. Taking one does not keep a stream running. One is taken per camera at a
   * time and kept for SNAPSHOT_REUSE_MS: however often a link is asked, a camera costs one ffmpeg a second at most.
   */
  snapshot(cameraId: number): Promise<Buffer> {
    checkId(cameraId);
    const recent = this.snapshots.get(cameraId);
    if (recent && (recent.pending || Date.now() - recent.at < SNAPSHOT_REUSE_MS)) return recent.jpeg;
    const entry = { at: Date.now(), pending: true, jpeg: this.takeSnapshot(cameraId) };
    this.snapshots.set(cameraId, entry);
    entry.jpeg.then(
      () => Object.assign(entry, { at: Date.now(), pending: false }),
      () => this.snapshots.get(cameraId) === entry && this.snapshots.delete(cameraId),
    );
    return entry.jpeg;
  }

  private async takeSnapshot(cameraId: number): Promise<Buffer> {
    const stream = this.streams.get(cameraId);
    if (stream && stream.state !== 'ending') {
      await stream.ready;
      const newest = await this.newestSegment(stream);
      if (newest) return this.runOnce(cameraId, [...COMMON_ARGS, '-i', newest, ...JPEG_FRAME_ARGS], SNAPSHOT_FROM_SEGMENT_MS);
    }
    this.admit(cameraId);
    this.sourceSnapshots++;
    try {
      const source = await this.source(cameraId);
      this.logger.debug({ cameraId }, 'snapshot from the camera');
      return await this.runOnce(cameraId, [...COMMON_ARGS, ...inputArgs(cameraId, source), ...JPEG_FRAME_ARGS], SNAPSHOT_FROM_SOURCE_MS);
    } finally {
      this.sourceSnapshots--;
    }
  }

  /**
   * streams: ffmpeg processes streaming (starting, live or stopping). watching: live streams asked for within the
   * last three segments' time; a player polls a live playlist about once a segment, so the others are only waiting
   * for their idle stop.
   */
  stats(): { streams: number; watching: number } {
    const since = Date.now() - 3 * this.segmentSeconds * 1000;
    let watching = 0;
    for (const stream of this.streams.values()) if (stream.state === 'live' && stream.lastWatched >= since) watching++;
    return { streams: this.streams.size, watching };
  }

  /**
   * Kills every ffmpeg at once, synchronously: for a process that is exiting without the time to stop() (a crash, a
   * shutdown timed out), so that no transcoder outlives it holding a camera's connection.
   */
  killAll(): void {
    this.stopped = true;
    for (const child of this.oneShots) child.kill('SIGKILL');
    for (const stream of this.streams.values()) stream.child?.kill('SIGKILL');
  }

  /** Stops every stream and snapshot and removes the streams' directories. Nothing starts afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const child of this.oneShots) child.kill('SIGKILL');
    await Promise.all([...this.streams.values()].map((stream) => this.close(stream)));
  }

  private async live(cameraId: number): Promise<Stream> {
    checkId(cameraId);
    for (;;) {
      const existing = this.streams.get(cameraId);
      // A stream on its way out is let go before its camera's next one starts: they share a directory.
      if (existing?.state === 'ending') {
        await existing.ended;
        continue;
      }
      const stream = existing ?? this.start(cameraId);
      stream.lastWatched = Date.now();
      await stream.ready;
      stream.lastWatched = Date.now();
      return stream;
    }
  }

  private start(cameraId: number): Stream {
    this.admit(cameraId);
    let settle!: (failure: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => (settle = (failure) => (failure === null ? resolve() : reject(failure))));
    // Callers await ready; a start nobody waits for any more must not be an unhandled rejection.
    ready.catch(() => undefined);
    const stream: Stream = {
      cameraId,
      dir: join(this.options.dir, String(cameraId)),
      state: 'starting',
      stopping: false,
      child: null,
      exit: null,
      lastWatched: Date.now(),
      stderrTail: '',
      ready,
      ended: Promise.resolve(),
    };
    stream.ended = this.run(stream, settle);
    this.streams.set(cameraId, stream);
    return stream;
  }

  /**
   * A stream's whole life: the one place that starts its ffmpeg and, however it ends, removes its directory and
   * forgets it. A failed start is reported (through ready) only once that is done, so nothing is left behind.
   */
  private async run(stream: Stream, settle: (failure: unknown) => void): Promise<void> {
    const { cameraId } = stream;
    let failure: unknown = null;
    try {
      const source = await this.source(cameraId);
      // Segments left by an earlier run would pass for this one's.
      await rm(stream.dir, { recursive: true, force: true });
      await mkdir(stream.dir, { recursive: true });
      if (stream.stopping) throw new StreamUnavailable(cameraId, 'stopped');
      const exited = this.spawnStream(stream, source);
      await this.firstSegment(stream);
      // Stopped, or ffmpeg gone, while the playlist was being read.
      if (stream.state === 'ending') throw new StreamUnavailable(cameraId, stream.exit ?? 'stopped');
      stream.state = 'live';
      // Somebody asked for it a start ago: the idle clock runs from now, however long the start took.
      stream.lastWatched = Date.now();
      settle(null);
      this.logger.info({ cameraId, source: redact(source.url) }, 'live stream started');
      await exited;
      if (!stream.stopping) this.logger.warn({ cameraId, exit: stream.exit, stderr: redact(stream.stderrTail) }, 'live stream ended');
    } catch (err) {
      failure = err;
      if (!(err instanceof UnknownCamera) && !stream.stopping) {
        this.logger.warn({ cameraId, reason: (err as Error).message, stderr: redact(stream.stderrTail) }, 'live stream did not start');
      }
    } finally {
      stream.state = 'ending';
      await this.terminate(stream);
      await rm(stream.dir, { recursive: true, force: true }).catch((err: Error) =>
        this.logger.warn({ cameraId, err: err.message }, 'stream directory not removed'),
      );
      if (this.streams.get(cameraId) === stream) this.streams.delete(cameraId);
      // A stream that never went live tells its waiters why (for one that did, ready is settled already).
      settle(failure ?? new StreamUnavailable(cameraId, 'stopped'));
    }
  }

  /** Starts the stream's ffmpeg; resolves when it has exited. */
  private spawnStream(stream: Stream, source: StreamSource): Promise<void> {
    const output = [
      ...VIDEO_CODEC_ARGS,
      ...['-f', 'hls', '-hls_time', String(this.segmentSeconds), '-hls_list_size', '6'],
      // independent_segments: each segment starts with a key frame (stream copy cuts only there), which the playlist
      // says so players may start anywhere; omit_endlist: a live stream never ends, even when ffmpeg is stopped.
      ...['-hls_flags', 'delete_segments+independent_segments+omit_endlist'],
      ...['-hls_segment_filename', join(stream.dir, 'seg-%d.ts'), join(stream.dir, PLAYLIST)],
    ];
    const child = spawn(this.ffmpegPath, [...COMMON_ARGS, ...inputArgs(stream.cameraId, source), ...output], { stdio: ['ignore', 'ignore', 'pipe'] });
    stream.child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stream.stderrTail = (stream.stderrTail + text).slice(-STDERR_TAIL_CHARS)));
    return new Promise((resolve) => {
      const exited = (why: string) => {
        if (stream.exit !== null) return;
        stream.exit = why;
        // A stream whose ffmpeg is gone is forgotten (run() clears it up); the next viewer starts it again.
        stream.state = 'ending';
        resolve();
      };
      child.once('error', (err) => exited(`ffmpeg did not run: ${err.message}`));
      child.once('close', (code, signal) => exited(describeExit(code, signal)));
    });
  }

  /** Waits until the playlist lists a segment, ffmpeg exits, the stream is stopped or the start takes too long. */
  private async firstSegment(stream: Stream): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      if (stream.stopping) throw new StreamUnavailable(stream.cameraId, 'stopped');
      if (stream.exit !== null) throw new StreamUnavailable(stream.cameraId, stream.exit);
      const text = await readFile(join(stream.dir, PLAYLIST), 'utf8').catch(() => '');
      if (text.match(LISTED_SEGMENT)) return;
      if (Date.now() >= deadline) throw new StreamUnavailable(stream.cameraId, `no picture within ${this.startTimeoutMs} ms`);
      await delay(POLL_MS);
    }
  }

  /** The newest segment the playlist lists: ffmpeg lists a segment only once it is complete. */
  private async newestSegment(stream: Stream): Promise<string | null> {
    const text = await readFile(join(stream.dir, PLAYLIST), 'utf8').catch(() => '');
    const listed = text.match(LISTED_SEGMENT);
    return listed ? join(stream.dir, listed[listed.length - 1]) : null;
  }

  /** Stops a stream: resolves once it is gone. */
  private close(stream: Stream): Promise<void> {
    stream.stopping = true;
    stream.state = 'ending';
    void this.terminate(stream);
    return stream.ended;
  }

  /** SIGTERM (ffmpeg closes its files), SIGKILL if it has not exited in KILL_GRACE_MS; resolves once it has. */
  private async terminate(stream: Stream): Promise<void> {
    const child = stream.child;
    if (!child || stream.exit !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await gone;
    clearTimeout(kill);
  }

  private sweep(): void {
    // Snapshots past reuse are dropped, so the map holds only what was asked for within the last second or so.
    for (const [cameraId, snapshot] of this.snapshots)
      if (!snapshot.pending && Date.now() - snapshot.at >= SNAPSHOT_REUSE_MS) this.snapshots.delete(cameraId);
    const idleSince = Date.now() - this.idleStopMs;
    for (const stream of this.streams.values()) {
      if (stream.state !== 'live' || stream.lastWatched >= idleSince) continue;
      this.logger.info({ cameraId: stream.cameraId }, 'live stream stopped: nobody watching');
      void this.close(stream);
    }
  }

  private async source(cameraId: number): Promise<StreamSource> {
    const source = await this.options.resolve(cameraId);
    if (!source) throw new UnknownCamera(cameraId);
    return source;
  }

  /** Another camera connection, if the service is not stopping and has room for it. */
  private admit(cameraId: number): void {
    if (this.stopped) throw new StreamUnavailable(cameraId, 'the video service is stopping');
    if (this.streams.size + this.sourceSnapshots >= this.maxStreams) throw new TooManyStreams(this.maxStreams);
  }

  /** Runs an ffmpeg that writes one JPEG to stdout, within timeoutMs. */
  private runOnce(cameraId: number, args: string[], timeoutMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      this.oneShots.add(child);
      const chunks: Buffer[] = [];
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-STDERR_TAIL_CHARS)));
      let done = false;
      const finish = (why: string | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.oneShots.delete(child);
        const jpeg = Buffer.concat(chunks);
        if (why === null && jpeg.length > 0) return resolve(jpeg);
        const reason = timedOut ? `no picture within ${timeoutMs} ms` : (why ?? 'no picture');
        this.logger.warn({ cameraId, reason, stderr: redact(stderr) }, 'snapshot failed');
        reject(new StreamUnavailable(cameraId, reason));
      };
      child.once('error', (err) => finish(`ffmpeg did not run: ${err.message}`));
      child.once('close', (code, signal) => finish(code === 0 ? null : describeExit(code, signal)));
    });
  }
}

/**
 * ffmpeg's input options. RTSP over TCP: UDP loses packets (smeared pictures) behind NAT and firewalls; -timeout is
 * the RTSP demuxer's socket timeout (microseconds; ffmpeg 5 renamed the old -stimeout to it), so a camera that goes
 * silent ends its stream instead of hanging it. The stream is analysed for a second at most (ffmpeg's default would take
 * about two before the first segment): a camera sends its parameters with every keyframe, at least once a second in
 * any sensible configuration. Anything else is a file (tests, demonstrations), read at its own
 * pace and looped as if it were live. The login goes into the address here and nowhere else.
 */
function inputArgs(cameraId: number, source: StreamSource): string[] {
  const url = withLogin(cameraId, source);
  if (/^rtsps?:\/\//i.test(source.url))
    return ['-rtsp_transport', 'tcp', '-timeout', '5000000', '-analyzeduration', '1000000', '-probesize', '1000000', '-i', url];
  return ['-re', '-stream_loop', '-1', '-i', url];
}

function withLogin(cameraId: number, { url, username, password }: StreamSource): string {
  if (!username || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StreamUnavailable(cameraId, 'the camera address is not valid');
  }
  parsed.username = encodeURIComponent(username);
  parsed.password = password ? encodeURIComponent(password) : '';
  return parsed.toString();
}

/** An address (or ffmpeg's complaint about one) without its login. */
function redact(text: string): string {
  return text.replace(/\/\/[^\s/@]+@/g, '//***@');
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `ffmpeg killed by ${signal}` : `ffmpeg exited with code ${code}`;
}

/** Camera ids name directories: only positive integers get that far. */
function checkId(cameraId: number): void {
  if (!Number.isSafeInteger(cameraId) || cameraId <= 0) throw new UnknownCamera(cameraId);
}
