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

/** A sine tone made by Debian's ffmpeg (package ffmpeg), as the file ffmpeg writes for `extension`. */
async function tone(extension: 'mp3' | 'wav', o: ToneOptions, codec: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sc-audio-'));
  try {
    const out = join(dir, `tone.${extension}`);
    const source = `sine=frequency=${o.frequency ?? 440}:duration=${o.seconds}:sample_rate=${o.sampleRate ?? 44100}`;
    await run('ffmpeg', ['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', source, '-ac', String(o.channels ?? 1), ...codec, out]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An MP3 (LAME, constant bitrate) of a sine tone. */
export const mp3Tone = (o: ToneOptions & { kbps?: number }): Promise<Buffer> =>
  tone('mp3', o, ['-codec:a', 'libmp3lame', '-b:a', `${o.kbps ?? 64}k`]);

/** A WAV (16-bit PCM) of a sine tone. */
export const wavTone = (o: ToneOptions): Promise<Buffer> => tone('wav', o, ['-codec:a', 'pcm_s16le']);
