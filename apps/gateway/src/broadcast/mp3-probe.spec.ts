import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { AppException } from '../common/app-exception';
import { MP3_RULE, Mp3Probe, audioStart, hasConsecutiveMp3Frames, looksLikeMp3Start, mp3FactsOf, mp3FrameAt } from './mp3-probe';

/** MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames. */
const FRAME_128 = Buffer.from([0xff, 0xfb, 0x90, 0x00]);
/** MPEG-2 layer III, 64 kbit/s, 22.05 kHz: 208-byte frames. */
const FRAME_V2 = Buffer.from([0xff, 0xf3, 0x80, 0x00]);

const frames = (header: Buffer, length: number, count: number) =>
  Buffer.concat(Array.from({ length: count }, () => Buffer.concat([header, Buffer.alloc(length - 4, 0x55)])));

/** An ID3v2.4 tag holding `size` bytes after its header (syncsafe size). */
function id3(size: number): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  return Buffer.concat([header, Buffer.alloc(size, 0x20)]);
}

describe('MP3 frame headers', () => {
  it('reads a layer III header: version, sample rate and frame length', () => {
    expect(mp3FrameAt(FRAME_128)).toEqual({ version: 3, sampleRate: 44100, length: 417 });
    expect(mp3FrameAt(Buffer.from([0xff, 0xfb, 0x92, 0x00]))).toEqual({ version: 3, sampleRate: 44100, length: 418 });
    expect(mp3FrameAt(FRAME_V2)).toEqual({ version: 2, sampleRate: 22050, length: 208 });
  });

  it('refuses what is no layer III header', () => {
    for (const bytes of [
      [0xff, 0xfd, 0x90, 0x00], // layer II
      [0xff, 0xff, 0x90, 0x00], // layer I
      [0xff, 0xeb, 0x90, 0x00], // reserved version
      [0xff, 0xfb, 0x00, 0x00], // free-format bitrate
      [0xff, 0xfb, 0xf0, 0x00], // bad bitrate
      [0xff, 0xfb, 0x9c, 0x00], // reserved sample rate
      [0xfe, 0xfb, 0x90, 0x00], // no sync
      [0xff, 0xfb, 0x90], // cut short
    ]) {
      expect(mp3FrameAt(Buffer.from(bytes))).toBeNull();
    }
  });

  it('finds the audio after an ID3v2 tag, footer included', () => {
    expect(audioStart(id3(35))).toBe(45);
    const withFooter = Buffer.from(id3(35));
    withFooter[5] = 0x10;
    expect(audioStart(withFooter)).toBe(55);
    expect(audioStart(FRAME_128)).toBe(0);
    // A size byte with its top bit set is no syncsafe size.
    expect(audioStart(Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0x80, 0, 0, 0]))).toBe(0);
  });

  it('is the first look of the upload rule: .mp3 at most 50 MB, an ID3 tag or a frame first', () => {
    expect(MP3_RULE).toMatchObject({ maxBytes: 50 * 1024 * 1024, extensions: ['.mp3'], tooLargeKey: 'fileTooLarge50mb', wrongTypeKey: 'onlyMp3' });
    expect(looksLikeMp3Start(id3(10))).toBe(true);
    expect(looksLikeMp3Start(FRAME_128)).toBe(true);
    expect(MP3_RULE.sniff(Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt '), '.mp3')).toBe(false);
    expect(MP3_RULE.sniff(Buffer.from('hello, this is text'), '.mp3')).toBe(false);
    expect(MP3_RULE.sniff(Buffer.alloc(0), '.mp3')).toBe(false);
  });
});

describe('hasConsecutiveMp3Frames', () => {
  let dir: string;
  const file = async (name: string, content: Buffer) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-mp3-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts two frames in a row, after a tag or its zero padding, or at the start', async () => {
    expect(await hasConsecutiveMp3Frames(await file('a.mp3', frames(FRAME_128, 417, 3)))).toBe(true);
    expect(await hasConsecutiveMp3Frames(await file('b.mp3', Buffer.concat([id3(300), frames(FRAME_V2, 208, 2)])))).toBe(true);
    expect(await hasConsecutiveMp3Frames(await file('c.mp3', Buffer.concat([id3(20), Buffer.alloc(100), frames(FRAME_128, 417, 2)])))).toBe(true);
  });

  it('refuses a lone header, a second frame elsewhere, a change of sample rate and a tag over text', async () => {
    expect(await hasConsecutiveMp3Frames(await file('d.mp3', Buffer.concat([FRAME_128, Buffer.alloc(1000, 0x41)])))).toBe(false);
    expect(await hasConsecutiveMp3Frames(await file('e.mp3', Buffer.concat([FRAME_128, Buffer.alloc(500), FRAME_128])))).toBe(false);
    expect(await hasConsecutiveMp3Frames(await file('f.mp3', Buffer.concat([FRAME_128, Buffer.alloc(413), FRAME_V2])))).toBe(false);
    expect(await hasConsecutiveMp3Frames(await file('g.mp3', Buffer.concat([id3(40), Buffer.from('Name,Code\nPole 1,P-001\n'.repeat(40))])))).toBe(
      false,
    );
    expect(await hasConsecutiveMp3Frames(await file('h.mp3', Buffer.alloc(0)))).toBe(false);
  });
});

describe("mp3FactsOf (ffprobe's answer)", () => {
  const mp3 = {
    streams: [{ codec_type: 'audio', codec_name: 'mp3', sample_rate: '44100', channels: 1, bit_rate: '64000', duration: '3.030204' }],
    format: { format_name: 'mp3', duration: '3.030204', bit_rate: '64666' },
  };

  it('reads duration (ms), bitrate, sample rate and channels of an MP3', () => {
    expect(mp3FactsOf(mp3)).toEqual({ durationMs: 3030, bitrate: 64000, sampleRate: 44100, channels: 1 });
  });

  it("takes the container's duration and bitrate when the stream has none, and allows a cover picture", () => {
    const answer = {
      streams: [
        { codec_type: 'audio', codec_name: 'mp3', sample_rate: '48000', channels: 2 },
        { codec_type: 'video', codec_name: 'mjpeg' },
      ],
      format: { format_name: 'mp3', duration: '61.5', bit_rate: '192000' },
    };
    expect(mp3FactsOf(answer)).toEqual({ durationMs: 61500, bitrate: 192000, sampleRate: 48000, channels: 2 });
  });

  it('refuses another container or codec, no audio, two audio streams, and missing or zero facts', () => {
    const wav = { streams: [{ ...mp3.streams[0], codec_name: 'pcm_s16le' }], format: { ...mp3.format, format_name: 'wav' } };
    expect(mp3FactsOf(wav)).toBeNull();
    expect(mp3FactsOf({ ...mp3, format: { ...mp3.format, format_name: 'wav' } })).toBeNull();
    expect(mp3FactsOf({ ...mp3, streams: [{ ...mp3.streams[0], codec_name: 'mp2' }] })).toBeNull();
    expect(mp3FactsOf({ ...mp3, streams: [] })).toBeNull();
    expect(mp3FactsOf({ ...mp3, streams: [mp3.streams[0], mp3.streams[0]] })).toBeNull();
    expect(mp3FactsOf({})).toBeNull();
    expect(mp3FactsOf({ ...mp3, streams: [{ ...mp3.streams[0], sample_rate: '0' }] })).toBeNull();
    expect(mp3FactsOf({ streams: [{ ...mp3.streams[0], duration: 'N/A' }], format: { ...mp3.format, duration: undefined } })).toBeNull();
    expect(mp3FactsOf({ ...mp3, streams: [{ ...mp3.streams[0], duration: '0.0001' }], format: { ...mp3.format, duration: '0.0001' } })).toBeNull();
  });
});

describe('Mp3Probe', () => {
  it('answers 503 "could not be checked" when ffprobe cannot run, and refuses a file without MP3 frames before running it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sc-mp3-'));
    try {
      const probe = new Mp3Probe({ ...loadConfig({}), media: { ...loadConfig({}).media, ffprobePath: join(dir, 'no-ffprobe') } });
      const good = join(dir, 'good.mp3');
      await writeFile(good, frames(FRAME_128, 417, 4));
      await expect(probe.inspect(good)).rejects.toMatchObject({ status: 503, key: 'mediaCheckUnavailable' });
      const text = join(dir, 'text.mp3');
      await writeFile(text, 'not audio at all');
      const refusal = await probe.inspect(text).catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(AppException);
      expect(refusal).toMatchObject({ status: 400, key: 'onlyMp3' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
