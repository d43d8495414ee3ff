import { Inject, Injectable } from '@nestjs/common';
import { open } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import {
  MATERIAL_IMAGE_MAX_PIXELS,
  MATERIAL_UPLOAD,
  MATERIAL_TYPES,
  MaterialType,
  materialTypeOfName,
  type MaterialType as MaterialTypeValue,
} from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { looksLikeMp3Start } from '../broadcast/mp3-probe';
import { ffprobe, positive, runMediaTool, type FfprobeOutput } from './ffprobe';
import type { UploadRule } from './upload.service';

// sharp keeps no decoded images between calls: a gateway's memory is not an image cache.
sharp.cache(false);

/** What a file's first bytes say it is; MP4 and M4A share a container (ISO BMFF), told apart by their streams. */
export type Container = 'jpeg' | 'png' | 'gif' | 'webp' | 'isobmff' | 'webm' | 'mp3';

const CONTAINER_TYPES: Record<Container, readonly MaterialTypeValue[]> = {
  jpeg: [MaterialType.Image],
  png: [MaterialType.Image],
  gif: [MaterialType.Image],
  webp: [MaterialType.Image],
  isobmff: [MaterialType.Video, MaterialType.Music],
  webm: [MaterialType.Video],
  mp3: [MaterialType.Music],
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The container a file's first (16) bytes announce, or null for anything else. */
export function sniffContainer(head: Buffer): Container | null {
  const ascii = (from: number, to: number) => head.toString('latin1', from, to);
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(PNG)) return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp') return 'isobmff';
  if (head.subarray(0, 4).equals(EBML)) return 'webm';
  if (looksLikeMp3Start(head)) return 'mp3';
  return null;
}

const TOO_LARGE: MessageKey = 'materialTooLarge';
const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/**
 * The upload rule of media of the given types: an extension of one of them, at most the largest type's size while
 * streaming and the type's own size past that (MATERIAL_UPLOAD), and first bytes of one of the accepted containers.
 * `wrongTypeKey` names what may be uploaded.
 */
export function materialRule(types: readonly MaterialTypeValue[], wrongTypeKey: MessageKey): UploadRule {
  const largest = Math.max(...types.map((type) => MATERIAL_UPLOAD[type].maxBytes));
  return {
    maxBytes: largest,
    tooLargeKey: TOO_LARGE,
    tooLargeParams: { maxMb: megabytes(largest) },
    wrongTypeKey,
    extensions: types.flatMap((type) => MATERIAL_UPLOAD[type].extensions),
    sniff: (head) => {
      const container = sniffContainer(head);
      return container !== null && CONTAINER_TYPES[container].some((type) => types.includes(type));
    },
    limitFor: (extension) => {
      const type = materialTypeOfName(extension);
      const maxBytes = type && types.includes(type) ? MATERIAL_UPLOAD[type].maxBytes : 0;
      return { maxBytes, tooLargeKey: TOO_LARGE, tooLargeParams: { maxMb: megabytes(maxBytes) } };
    },
  };
}

/** The upload rule of floor-screen materials: images, videos and music. */
export const MATERIAL_RULE: UploadRule = materialRule(MATERIAL_TYPES, 'materialWrongType');

/** What a material keeps of its content. */
export interface MaterialFacts {
  type: MaterialTypeValue;
  mime: string;
  width: number | null;
  height: number | null;
  /** Seconds; null for an image. */
  duration: number | null;
}

const NOT_OF_TYPE: Record<MaterialTypeValue, MessageKey> = { image: 'materialNotImage', video: 'materialNotVideo', music: 'materialNotMusic' };
const UNREADABLE: Record<MaterialTypeValue, MessageKey> = { image: 'imageUnreadable', video: 'videoUnreadable', music: 'musicUnreadable' };

const IMAGE_MIME: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
/** The video codecs each container may carry: those every browser and the players decode. */
const VIDEO_CODECS: Partial<Record<Container, readonly string[]>> = { isobmff: ['h264'], webm: ['vp8', 'vp9'] };

type Streams = NonNullable<FfprobeOutput['streams']>;
const pictures = (streams: Streams) => streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
const sounds = (streams: Streams) => streams.filter((s) => s.codec_type === 'audio');

/**
 * A video's or a piece of music's facts from ffprobe's answer, given the container its first bytes announced and the
 * type its name announced: the type it really is (a video stream makes a video), or a refusal key.
 */
export function avFactsOf(output: FfprobeOutput, container: Container, declared: MaterialTypeValue): MaterialFacts | MessageKey {
  const streams = output.streams ?? [];
  const formats = (output.format?.format_name ?? '').split(',');
  const video = pictures(streams);
  const audio = sounds(streams);
  if (video.length === 0 && audio.length === 0) return UNREADABLE[declared];
  const actual = video.length > 0 ? MaterialType.Video : MaterialType.Music;
  if (actual !== declared) return NOT_OF_TYPE[declared];
  const duration = positive(output.format?.duration, ...[...video, ...audio].map((s) => s.duration));
  if (duration === null) return UNREADABLE[declared];
  const seconds = Math.round(duration * 1000) / 1000;
  if (actual === MaterialType.Video) {
    const [first] = video;
    const width = positive(first.width);
    const height = positive(first.height);
    const codecs = VIDEO_CODECS[container] ?? [];
    const wrapper = container === 'webm' ? formats.includes('webm') : formats.includes('mp4');
    if (!wrapper || !codecs.includes(first.codec_name ?? '') || width === null || height === null) return UNREADABLE.video;
    return { type: actual, mime: container === 'webm' ? 'video/webm' : 'video/mp4', width, height, duration: seconds };
  }
  const codec = audio[0].codec_name;
  if (container === 'mp3' && formats.includes('mp3') && codec === 'mp3') {
    return { type: actual, mime: 'audio/mpeg', width: null, height: null, duration: seconds };
  }
  if (container === 'isobmff' && formats.includes('mp4') && codec === 'aac') {
    return { type: actual, mime: 'audio/mp4', width: null, height: null, duration: seconds };
  }
  return UNREADABLE.music;
}

/** The longest side of a cover, in pixels (the list shows them at a quarter of that). */
export const COVER_SIZE = 320;
/** ffmpeg gets this long to take a video's cover frame. */
const COVER_TIMEOUT_MS = 30_000;

/**
 * The floor-screen materials' content check and covers. The first bytes say which container a file is in and the name
 * which type the uploader meant; both must agree (a video named .png is refused). Then images are read by sharp (within
 * MATERIAL_IMAGE_MAX_PIXELS, before anything is decoded) and videos and music by ffprobe (a process of its own with a
 * time-out and bounded output): a file they cannot read is refused. A cover is a JPEG of at most COVER_SIZE pixels a
 * side: the image itself, or a video's frame at one second (ffmpeg, likewise bounded); music has none.
 */
@Injectable()
export class MaterialProbe {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async inspect(path: string, fileName: string): Promise<MaterialFacts> {
    const declared = materialTypeOfName(fileName);
    const container = sniffContainer(await readHead(path));
    if (!declared || !container) throw AppException.badRequest('materialWrongType');
    if (!CONTAINER_TYPES[container].includes(declared)) throw AppException.badRequest(NOT_OF_TYPE[declared]);
    if (declared === MaterialType.Image) return this.image(path, container);
    const entries = 'format=format_name,duration:stream=codec_type,codec_name,width,height,duration:stream_disposition=attached_pic';
    const facts = avFactsOf(await ffprobe(this.config.media.ffprobePath, path, entries, 'materialCheckUnavailable'), container, declared);
    if (typeof facts === 'string') throw AppException.badRequest(facts);
    return facts;
  }

  /** Writes the material's cover (JPEG) to `coverPath`; false for music, which has none. */
  async cover(path: string, facts: MaterialFacts, coverPath: string): Promise<boolean> {
    if (facts.type === MaterialType.Music) return false;
    if (facts.type === MaterialType.Image) {
      await image(path)
        .rotate()
        .resize(COVER_SIZE, COVER_SIZE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80 })
        .toFile(coverPath)
        .catch(() => Promise.reject(AppException.badRequest(UNREADABLE.image)));
      return true;
    }
    await this.videoFrame(path, Math.min(1, (facts.duration ?? 0) / 2), coverPath);
    return true;
  }

  private async image(path: string, container: Container): Promise<MaterialFacts> {
    const meta = await image(path)
      .metadata()
      .catch(() => null);
    if (!meta || !meta.width || !meta.height || IMAGE_MIME[meta.format ?? ''] !== IMAGE_MIME[container]) {
      throw AppException.badRequest(UNREADABLE.image);
    }
    if (meta.width * meta.height > MATERIAL_IMAGE_MAX_PIXELS) {
      throw AppException.badRequest('imageTooManyPixels', { max: MATERIAL_IMAGE_MAX_PIXELS / 1_000_000 });
    }
    // An image turned by its EXIF orientation shows with its sides swapped.
    const turned = (meta.orientation ?? 1) >= 5;
    return {
      type: MaterialType.Image,
      mime: IMAGE_MIME[container],
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      duration: null,
    };
  }

  private async videoFrame(path: string, atSeconds: number, coverPath: string): Promise<void> {
    const args = [
      ...['-v', 'error', '-nostdin', '-ss', atSeconds.toFixed(3), '-i', `file:${path}`],
      ...['-frames:v', '1', '-vf', `scale=w=${COVER_SIZE}:h=${COVER_SIZE}:force_original_aspect_ratio=decrease`],
      ...['-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', '-y', `file:${coverPath}`],
    ];
    const run = await runMediaTool(this.config.media.ffmpegPath, args, {
      timeoutMs: COVER_TIMEOUT_MS,
      maxBuffer: 64 * 1024,
      unavailableKey: 'materialCheckUnavailable',
    });
    if (!run.ok) throw AppException.badRequest(UNREADABLE.video);
  }
}

/** sharp on a stored file, refusing more pixels than MATERIAL_IMAGE_MAX_PIXELS before decoding, first frame only. */
function image(path: string): Sharp {
  return sharp(path, { limitInputPixels: MATERIAL_IMAGE_MAX_PIXELS, failOn: 'error', animated: false });
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await file.read(head, 0, 16, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
