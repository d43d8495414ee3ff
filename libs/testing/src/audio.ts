import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ToneOptions {
  seconds: number;
  /** Hz of the sine; 440 by default. */
  frequency?: number;
  sampleRate?: number;
  channels?: number;
}

/** A file Debian's ffmpeg (package ffmpeg) makes from its test sources (`lavfi`) with `args`, as it writes `extension`. */
async function made(extension: string, args: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sc-media-'));
  try {
    const out = join(dir, `made.${extension}`);
    await run('ffmpeg', ['-v', 'error', '-nostdin', ...args, out], { timeout: 60_000 });
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sine tone as the file ffmpeg writes for `extension`. */
function tone(extension: 'mp3' | 'wav', o: ToneOptions, codec: string[]): Promise<Buffer> {
  const source = `sine=frequency=${o.frequency ?? 440}:duration=${o.seconds}:sample_rate=${o.sampleRate ?? 44100}`;
  return made(extension, ['-f', 'lavfi', '-i', source, '-ac', String(o.channels ?? 1), ...codec]);
}

/** An MP4 (H.264, browsers and players decode it) of ffmpeg's test pattern, `seconds` long. */
export const mp4Clip = (o: { seconds: number; width: number; height: number }): Promise<Buffer> =>
  made('mp4', [
    ...['-f', 'lavfi', '-i', `testsrc=duration=${o.seconds}:size=${o.width}x${o.height}:rate=25`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-movflags', '+faststart'],
  ]);

/** An MP3 (LAME, constant bitrate) of a sine tone. */
export const mp3Tone = (o: ToneOptions & { kbps?: number }): Promise<Buffer> =>
  tone('mp3', o, ['-codec:a', 'libmp3lame', '-b:a', `${o.kbps ?? 64}k`]);

/** A WAV (16-bit PCM) of a sine tone. */
export const wavTone = (o: ToneOptions): Promise<Buffer> => tone('wav', o, ['-codec:a', 'pcm_s16le']);
