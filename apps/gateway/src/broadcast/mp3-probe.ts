import { Inject, Injectable } from '@nestjs/common';
import { open } from 'node:fs/promises';
import { LIMITS, MEDIA_UPLOAD_EXTENSIONS } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ffprobe, ffprobeAvailable, positive, type FfprobeOutput } from '../uploads/ffprobe';
import type { UploadRule } from '../uploads/upload.service';

/** What the media library keeps of an MP3's content. */
export interface Mp3Facts {
  durationMs: number;
  /** Bits per second. */
  bitrate: number;
  sampleRate: number;
  channels: number;
}

/** Kilobits per second by bitrate index, layer III: MPEG-1, and MPEG-2 / 2.5. */
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Hz by sample-rate index, MPEG-1; MPEG-2 halves them and MPEG-2.5 quarters them. */
const SAMPLE_RATES_V1 = [44100, 48000, 32000];

interface FrameHeader {
  /** 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5 (the header's version bits). */
  version: number;
  sampleRate: number;
  /** Bytes from this header to the next one. */
  length: number;
}

/**
 * Reads an MPEG audio layer III frame header (four bytes) at `at`: frame sync, a version and layer III, a bitrate and
 * a sample rate that exist. Null for anything else, free-format bitrates included.
 */
export function mp3FrameAt(bytes: Buffer, at = 0): FrameHeader | null {
  if (bytes.length < at + 4 || bytes[at] !== 0xff || (bytes[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (bytes[at + 1] >> 3) & 3;
  const layer = (bytes[at + 1] >> 1) & 3;
  const bitrateIndex = bytes[at + 2] >> 4;
  const rateIndex = (bytes[at + 2] >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const padding = (bytes[at + 2] >> 1) & 1;
  const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex];
  const sampleRate = SAMPLE_RATES_V1[rateIndex] / (version === 3 ? 1 : version === 2 ? 2 : 4);
  const samplesPerByte = version === 3 ? 144 : 72;
  return { version, sampleRate, length: Math.floor((samplesPerByte * kbps * 1000) / sampleRate) + padding };
}

/** Where the audio starts: after an ID3v2 tag (ten bytes, its syncsafe size, and a footer when flagged), else at 0. */
export function audioStart(head: Buffer): number {
  if (head.length < 10 || head.toString('latin1', 0, 3) !== 'ID3' || head[3] === 0xff || head[4] === 0xff) return 0;
  const size = head.subarray(6, 10);
  if (size.some((b) => b >= 0x80)) return 0;
  const footer = head[5] & 0x10 ? 10 : 0;
  return 10 + ((size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3]) + footer;
}

/** The first bytes of an MP3: an ID3v2 tag or a layer III frame header. Only a cheap first look: see Mp3Probe. */
export function looksLikeMp3Start(head: Buffer): boolean {
  return audioStart(head) > 0 || mp3FrameAt(head) !== null;
}

/** The media library's upload rule: `.mp3`, at most 50 MB (spec sections 5 and 9), starting like an MP3. */
export const MP3_RULE: UploadRule = {
  maxBytes: LIMITS.audioMaxBytes,
  tooLargeKey: 'fileTooLarge50mb',
  wrongTypeKey: 'onlyMp3',
  extensions: [...MEDIA_UPLOAD_EXTENSIONS],
  sniff: (head) => looksLikeMp3Start(head),
};

/** Zero bytes tolerated between an ID3 tag and the first frame (some taggers pad there). */
const MAX_PADDING = 4096;

/**
 * Whether the file's audio starts with two consecutive layer III frames of the same version and sample rate, the
 * second where the first one's length says: random bytes or another format pass this by chance practically never.
 */
export async function hasConsecutiveMp3Frames(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    let start = audioStart(await read(0, 10));
    const padded = await read(start, MAX_PADDING + 4);
    let skip = 0;
    while (skip < MAX_PADDING && padded[skip] === 0) skip += 1;
    start += skip;
    const first = mp3FrameAt(padded, skip);
    if (!first) return false;
    const second = mp3FrameAt(await read(start + first.length, 4));
    return second !== null && second.version === first.version && second.sampleRate === first.sampleRate;
  } finally {
    await file.close();
  }
}

/**
 * The facts of an MP3 from ffprobe's answer, or null when it is not one: the container must be MP3, with exactly one
 * audio stream, coded MP3, with a duration, a bitrate, a sample rate and channels (an attached cover picture is allowed).
 */
export function mp3FactsOf(output: FfprobeOutput): Mp3Facts | null {
  const formats = (output.format?.format_name ?? '').split(',');
  const audio = (output.streams ?? []).filter((s) => s.codec_type === 'audio');
  if (!formats.includes('mp3') || audio.length !== 1 || audio[0].codec_name !== 'mp3') return null;
  const [stream] = audio;
  const duration = positive(stream.duration, output.format?.duration);
  const bitrate = positive(stream.bit_rate, output.format?.bit_rate);
  const sampleRate = positive(stream.sample_rate);
  const channels = positive(stream.channels);
  if (duration === null || bitrate === null || sampleRate === null || channels === null) return null;
  const durationMs = Math.round(duration * 1000);
  return durationMs > 0 ? { durationMs, bitrate: Math.round(bitrate), sampleRate, channels } : null;
}

/**
 * The media library's content check: the file's own frames first (above), then ffprobe (Debian's ffmpeg) for the
 * duration, bitrate, sample rate and channels. ffprobe runs as a process of its own with a time-out, so a file that
 * crashes or hangs a parser cannot take the gateway with it, and nothing of the file is parsed in the gateway's heap.
 * The reasons for ffprobe over an in-process parser are in docs/broadcast-media.md.
 */
@Injectable()
export class Mp3Probe {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The file's facts; refused with 'Only MP3 audio files are supported' when it is no MP3. */
  async inspect(path: string): Promise<Mp3Facts> {
    if (!(await hasConsecutiveMp3Frames(path))) throw AppException.badRequest('onlyMp3');
    const facts = mp3FactsOf(await this.ffprobe(path));
    if (!facts) throw AppException.badRequest('onlyMp3');
    return facts;
  }

  /** Whether ffprobe runs at all (start-up says so when it does not: every upload would answer 503). */
  static available(ffprobePath: string): Promise<boolean> {
    return ffprobeAvailable(ffprobePath);
  }

  private ffprobe(path: string): Promise<FfprobeOutput> {
    const entries = 'format=format_name,duration,bit_rate:stream=codec_type,codec_name,sample_rate,channels,bit_rate,duration';
    return ffprobe(this.config.media.ffprobePath, path, entries, 'mediaCheckUnavailable');
  }
}
