import { Injectable } from '@nestjs/common';
import { SignedFileLinks, SignedUploadLinks } from '../common/signed-links';

/** Where a player uploads a screenshot (the upload port, no session): ScreenshotUploadController. */
export const SCREENSHOT_UPLOAD_PATH = '/api/signage/screenshot/upload';
/** Where the console loads a screenshot (the console port, no session): SignageScreenshotsController.image. */
export const SCREENSHOT_IMAGE_PATH = '/api/signage/screenshot/image';
/** How long a player has to upload the screenshot it was asked for. */
export const SCREENSHOT_UPLOAD_TTL_SECONDS = 300;

/** A player's link to upload one screenshot: it names the `signage_screenshot` row, taken once. */
@Injectable()
export class ScreenshotUploadLinks extends SignedUploadLinks {
  protected readonly kind = { path: SCREENSHOT_UPLOAD_PATH, label: 'signage-screenshot-upload' };
}

/** The console's link to show a received screenshot (an img element cannot send the session's header). */
@Injectable()
export class ScreenshotImageLinks extends SignedFileLinks {
  protected readonly kind = { path: SCREENSHOT_IMAGE_PATH, label: 'signage-screenshot' };
}
