import { spawn } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { MediaRecorder } from 'werift/nonstandard';
import type { MediaStreamTrack } from 'werift';
import { VoicePeer, type VoicePeerOptions } from './voice-peer';

/** A call's recording once mixed: the MP3 and what it holds. */
export interface VoiceRecording {
  path: string;
  seconds: number;
  fileSize: number;
}

/** One side's audio as it was written, and when it started (ms since the bridge opened). */
interface SideRecording {
  side: 'device' | 'agent';
  path: string;
  startMs: number;
  recorder: MediaRecorder;
}

/** How long mixing a recording may take before it is given up (a call of an hour mixes in seconds). */
const MIX_TIMEOUT_MS = 120_000;

/**
 * A call's voice between a device and an agent's browser, with this process in the middle: two WebRTC peers (the
 * device's side, offered by the bridge; the agent's, answering the browser), each side's audio passed to the other
 * packet by packet, untouched (both are Opus), and recorded. The agent's side may be replaced (the console reloaded)
 * while the device's stays. `finish` closes both and mixes what each side said into one MP3, each at its time.
 */
export class VoiceBridge {
  readonly device: VoicePeer;
  private agent: VoicePeer | null = null;
  private readonly sides: SideRecording[] = [];
  private readonly opened = Date.now();
  private finished: Promise<VoiceRecording | null> | null = null;

  constructor(
    readonly callId: string,
    private readonly options: VoicePeerOptions & { recordDir: string; logger: Logger },
  ) {
    this.device = new VoicePeer(options);
    this.device.onPacket((packet) => this.agent?.send(packet));
    this.device.onRemoteTrack((track) => void this.record('device', track));
  }

  /** The device side's offer (send it to the device; its answer goes to `deviceAnswered`). */
  async deviceOffer(): Promise<string> {
    await mkdir(this.workDir, { recursive: true });
    return this.device.offer();
  }

  deviceAnswered(sdp: string): Promise<void> {
    return this.device.accept(sdp);
  }

  /** Answers an agent's browser: its side replaces any earlier one of this call. */
  async answerAgent(offerSdp: string): Promise<string> {
    if (this.finished) throw new Error('the call ended');
    const previous = this.agent;
    // The replaced side's recording ends here (it is mixed in at its time with the rest).
    for (const side of this.sides) if (side.side === 'agent') await side.recorder.stop().catch(() => undefined);
    const agent = new VoicePeer(this.options);
    agent.onPacket((packet) => this.device.send(packet));
    agent.onRemoteTrack((track) => void this.record('agent', track));
    this.agent = agent;
    await previous?.close();
    return agent.answer(offerSdp);
  }

  /** Whether the bridge is closing or closed. */
  get closing(): boolean {
    return this.finished !== null;
  }

  /** Closes both sides and mixes the recording; null when nobody said anything (no audio came from either side). */
  finish(): Promise<VoiceRecording | null> {
    this.finished ??= this.close();
    return this.finished;
  }

  private get workDir(): string {
    return join(this.options.recordDir, 'calls', `call-${this.callId}`);
  }

  private async record(side: 'device' | 'agent', track: MediaStreamTrack): Promise<void> {
    if (this.finished) return;
    const path = join(this.workDir, `${side}-${this.sides.length + 1}.webm`);
    const recorder = new MediaRecorder({ path, tracks: [track], disableNtp: true });
    recorder.onError.subscribe((err: Error) => this.options.logger.warn({ err: err.message, callId: this.callId, side }, 'recording a side failed'));
    this.sides.push({ side, path, startMs: Date.now() - this.opened, recorder });
  }

  private async close(): Promise<VoiceRecording | null> {
    await Promise.all([this.device.close(), this.agent?.close()]);
    await Promise.all(this.sides.map((side) => side.recorder.stop().catch(() => undefined)));
    const heard: SideRecording[] = [];
    for (const side of this.sides) {
      const size = await stat(side.path).then(
        (s) => s.size,
        () => 0,
      );
      if (size > 200) heard.push(side);
    }
    if (heard.length === 0) {
      await rm(this.workDir, { recursive: true, force: true });
      return null;
    }
    // A file of its own per bridge: a call whose voice was opened again (a worker restarted) keeps every part.
    const path = join(this.options.recordDir, `call-${this.callId}-${this.opened}.mp3`);
    try {
      await mix(heard, path);
      const seconds = await durationOf(path);
      const fileSize = (await stat(path)).size;
      await rm(this.workDir, { recursive: true, force: true });
      return { path, seconds, fileSize };
    } catch (err) {
      // The sides stay in the work directory to be mixed by hand; the half-made MP3 goes.
      await rm(path, { force: true });
      throw err;
    }
  }
}

/** Mixes the sides into one mono MP3, each delayed to when it started. */
function mix(sides: readonly SideRecording[], out: string): Promise<void> {
  const inputs = sides.flatMap((side) => ['-i', side.path]);
  const delayed = sides.map((side, i) => `[${i}:a]aresample=48000,adelay=${Math.max(0, side.startMs)}:all=1[s${i}]`);
  const filter =
    sides.length === 1
      ? `${delayed[0]};[s0]anull[out]`
      : `${delayed.join(';')};${sides.map((_, i) => `[s${i}]`).join('')}amix=inputs=${sides.length}:duration=longest:normalize=0[out]`;
  return run('ffmpeg', [
    '-v',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    filter,
    '-map',
    '[out]',
    '-ac',
    '1',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '48k',
    out,
  ]);
}

async function durationOf(path: string): Promise<number> {
  const out = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', path], true);
  const seconds = Number.parseFloat(out);
  return Number.isFinite(seconds) ? Math.round(seconds * 10) / 10 : 0;
}

function run(command: string, args: string[], output: true): Promise<string>;
function run(command: string, args: string[]): Promise<void>;
function run(command: string, args: string[], output = false): Promise<string | void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), MIX_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output ? stdout : undefined);
      else reject(new Error(`${command} exited ${code}: ${stderr.trim()}`));
    });
  });
}
