import { Injectable } from '@nestjs/common';
import { SignedFileLinks } from '../common/signed-links';

/** Where signed links lead (the console port, no session needed): LedMediaController.file and .cover. */
export const LED_MEDIA_FILE_PATH = '/api/led/mediaFile';
export const LED_MEDIA_COVER_PATH = '/api/led/mediaCover';

/** Signed links to a medium's file: the console's preview, and the screens that fetch it (absolute). */
@Injectable()
export class LedMediaFileLinks extends SignedFileLinks {
  protected readonly kind = { path: LED_MEDIA_FILE_PATH, label: 'led-media' };
}

/** Signed links to a medium's cover (its JPEG thumbnail), as the list shows them. */
@Injectable()
export class LedMediaCoverLinks extends SignedFileLinks {
  protected readonly kind = { path: LED_MEDIA_COVER_PATH, label: 'led-media-cover' };
}
