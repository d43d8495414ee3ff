import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { UploadService } from '../uploads/upload.service';
import { SignageDevicesController } from './devices.controller';
import { SignageDevicesService } from './devices.service';
import { SignageGroupsController } from './groups.controller';
import { SignageGroupsService } from './groups.service';
import { SignagePlaysController } from './plays.controller';
import { SignagePlaysService } from './plays.service';
import { ScreenshotImageLinks, ScreenshotUploadLinks } from './screenshot-links';
import { ScreenshotUploadController } from './screenshot-upload.controller';
import { SignageScreenshotsService } from './screenshots.service';

const SCREENSHOT_PROVIDERS = [SignageScreenshotsService, ScreenshotUploadLinks, ScreenshotImageLinks, UploadService];

/** Floor screens on the console port: players, their groups, their commands, their screenshots (docs/signage-devices.md) and what they played (docs/signage-ads.md). */
@Module({
  imports: [DispatchModule],
  controllers: [SignageDevicesController, SignageGroupsController, SignagePlaysController],
  providers: [SignageDevicesService, SignageGroupsService, SignagePlaysService, ...SCREENSHOT_PROVIDERS],
})
export class SignageModule {}

/** Screenshots players upload, on the upload port. */
@Module({ controllers: [ScreenshotUploadController], providers: SCREENSHOT_PROVIDERS })
export class SignageScreenshotUploadModule {}
