import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { MaterialProbe } from '../uploads/material-probe';
import { UploadService } from '../uploads/upload.service';
import { LedController } from './led.controller';
import { LedMediaController, LedMediaUploadController } from './led-media.controller';
import { LedMediaCoverLinks, LedMediaFileLinks } from './led-media-links';
import { LedMediaService } from './led-media.service';
import { LedService } from './led.service';
import { LedTasksController } from './led-tasks.controller';
import { LedTasksService } from './led-tasks.service';

const MEDIA_PROVIDERS = [LedMediaService, MaterialProbe, LedMediaFileLinks, LedMediaCoverLinks, UploadService];

/** LED screens on the console port: their list and export, records, commands and daylight rule; media, real-time play, tasks. */
@Module({
  imports: [DispatchModule],
  controllers: [LedController, LedMediaController, LedTasksController],
  providers: [LedService, LedTasksService, ListExporter, ...MEDIA_PROVIDERS],
  exports: [LedTasksService],
})
export class LedModule {}

/** LED media uploads, on the upload port. */
@Module({ controllers: [LedMediaUploadController], providers: MEDIA_PROVIDERS })
export class LedUploadModule {}
