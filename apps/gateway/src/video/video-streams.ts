import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Inject, Injectable } from '@nestjs/common';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** A part of a live stream as the video worker served it: read whole (a playlist, a snapshot) or passed on as it comes (a segment). */
export interface StreamPart {
  contentType: string;
  body: Buffer | Readable;
}

/** Segment names the video worker writes (anything else is not asked of it). */
const SEGMENT = /^seg-\d{1,10}\.ts$/;

/**
 * The gateway's way to the video workers' live streams (VIDEO_SERVICE_URLS): a camera's stream is always asked of the
 * same worker (its id modulo their number), where its one transcoder runs however many browsers watch. The browsers
 * never reach a worker: they hold signed links to the gateway, which checked the user's rights when it signed them.
 */
@Injectable()
export class VideoStreams {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private base(cameraId: number): string {
    const urls = this.config.video.serviceUrls;
    return urls[cameraId % urls.length];
  }

  /**
   * The camera's playlist, each segment it names as a link to this route with `query` (the link's signature, which
   * the segment requests must carry too). The first request of a stream waits while the worker starts it.
   */
  async playlist(cameraId: number, query: string): Promise<StreamPart> {
    const part = await this.partOf(await this.request(`${this.base(cameraId)}/live/${cameraId}/index.m3u8`, 15_000));
    const text = part.body
      .toString('utf8')
      .split('\n')
      .map((line) => (SEGMENT.test(line.trim()) ? `hls?file=${line.trim()}&${query}` : line))
      .join('\n');
    return { contentType: part.contentType, body: Buffer.from(text) };
  }

  /** A segment, passed on to the browser as the worker sends it (nothing of it held in the gateway's memory). */
  async segment(cameraId: number, name: string): Promise<StreamPart> {
    if (!SEGMENT.test(name)) throw AppException.notFound();
    const response = await this.request(`${this.base(cameraId)}/live/${cameraId}/${name}`, 10_000);
    if (!response.ok || !response.body) return this.partOf(response);
    return {
      contentType: response.headers.get('content-type') ?? 'video/mp2t',
      body: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
    };
  }

  async snapshot(cameraId: number): Promise<StreamPart> {
    const response = await this.request(`${this.base(cameraId)}/snapshot/${cameraId}`, 15_000);
    return this.partOf(response);
  }

  private async request(url: string, timeoutMs: number): Promise<Response> {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      // The worker is not there (or did not answer in time): the stream cannot be had now.
      throw AppException.unavailable('videoServiceUnavailable');
    }
  }

  private async partOf(response: Response): Promise<{ contentType: string; body: Buffer }> {
    if (response.ok) {
      return { contentType: response.headers.get('content-type') ?? 'application/octet-stream', body: Buffer.from(await response.arrayBuffer()) };
    }
    const { error } = ((await response.json().catch(() => ({}))) as { error?: string }) ?? {};
    if (error === 'too-many-streams') throw AppException.unavailable('videoTooManyStreams');
    if (error === 'unavailable') throw AppException.unavailable('videoStreamUnavailable');
    throw AppException.notFound();
  }
}
