import { Injectable } from '@nestjs/common';
import { SignedLinks } from '../common/signed-links';

/** Where a live view's links lead (the console port, no session: a video element and hls.js send none). */
export const VIDEO_HLS_PATH = '/api/video/hls';
export const VIDEO_SNAPSHOT_PATH = '/api/video/snapshot';

/**
 * Signed links to a camera's live stream: the playlist (`/api/video/hls?id=…&expires=…&signature=…`), and its
 * segments (the same with `file=seg-N.ts`, as the gateway writes them into the playlist). The signature names the
 * camera, so a link opens that camera only.
 */
@Injectable()
export class VideoLiveLinks extends SignedLinks {
  protected readonly kind = { path: VIDEO_HLS_PATH, label: 'video-live' };
}

/** Signed links to a camera's snapshot (an img element sends no session). */
@Injectable()
export class VideoSnapshotLinks extends SignedLinks {
  protected readonly kind = { path: VIDEO_SNAPSHOT_PATH, label: 'video-snapshot' };
}
