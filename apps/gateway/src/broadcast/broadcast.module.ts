import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { BroadcastGroupsController } from './groups.controller';
import { BroadcastGroupsService } from './groups.service';
import { UploadService } from '../uploads/upload.service';
import { MediaLinks } from './media-links';
import { MediaUploadController } from './media-upload.controller';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';
import { Mp3Probe } from './mp3-probe';
import { PlaylistsController } from './playlists.controller';
import { PlaylistsService } from './playlists.service';
import { BroadcastTaskStopService } from './task-stop.service';
import { BroadcastTasksController } from './tasks.controller';
import { BroadcastTasksService } from './tasks.service';
import { TerminalsController } from './terminals.controller';
import { TerminalHistoryService } from './terminal-history.service';
import { TerminalsService } from './terminals.service';

const MEDIA_PROVIDERS = [MediaService, MediaLinks, Mp3Probe, UploadService];

/** Broadcast on the console port: terminals, their groups, the media library and playlists; tasks join here. */
@Module({
  imports: [DispatchModule],
  controllers: [TerminalsController, BroadcastGroupsController, MediaController, PlaylistsController, BroadcastTasksController],
  providers: [
    TerminalsService,
    TerminalHistoryService,
    BroadcastGroupsService,
    PlaylistsService,
    BroadcastTasksService,
    BroadcastTaskStopService,
    ...MEDIA_PROVIDERS,
  ],
  exports: [BroadcastTasksService, MediaService, MediaLinks],
})
export class BroadcastModule {}

/** Media uploads, on the upload port. */
@Module({
  controllers: [MediaUploadController],
  providers: MEDIA_PROVIDERS,
})
export class BroadcastUploadModule {}
