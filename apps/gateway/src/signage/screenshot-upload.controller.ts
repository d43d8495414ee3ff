import { Controller, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ApiConsumes, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MEDIA_LINK_PARAMS } from '@sc/contracts';
import { Public } from '../common/decorators';
import type { AppRequest } from '../common/request-context';
import { SCREENSHOT_UPLOAD_PATH } from './screenshot-links';
import { SignageScreenshotsService } from './screenshots.service';

/** The route of SCREENSHOT_UPLOAD_PATH under the global /api prefix. */
const ROUTE = SCREENSHOT_UPLOAD_PATH.replace(/^\/api\//, '');

/**
 * Screenshots from floor screens, on the upload port (8888): the body is the picture (image/jpeg, image/png or
 * application/octet-stream, at most SCREENSHOT_MAX_BYTES: 413 beyond), PUT or POST to the signed link the
 * `screenshot` command gave. No session: the link names the screenshot, and is taken once. The body is read from the
 * request as the parser left it (a Buffer), not through the validation pipe, which freezes JSON bodies.
 */
@ApiTags('floor screens')
@Public()
@Controller()
export class ScreenshotUploadController {
  constructor(private readonly screenshots: SignageScreenshotsService) {}

  @Put(ROUTE)
  @HttpCode(200)
  @ApiConsumes('image/jpeg', 'image/png', 'application/octet-stream')
  @ApiQuery({ name: MEDIA_LINK_PARAMS.id, type: String })
  @ApiQuery({ name: MEDIA_LINK_PARAMS.expires, type: String })
  @ApiQuery({ name: MEDIA_LINK_PARAMS.signature, type: String })
  put(@Req() req: AppRequest): Promise<{ width: number; height: number }> {
    return this.screenshots.receive(req.query as Record<string, unknown>, req.body);
  }

  @Post(ROUTE)
  @HttpCode(200)
  @ApiConsumes('image/jpeg', 'image/png', 'application/octet-stream')
  post(@Req() req: AppRequest): Promise<{ width: number; height: number }> {
    return this.screenshots.receive(req.query as Record<string, unknown>, req.body);
  }
}
