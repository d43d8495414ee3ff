import { Module } from '@nestjs/common';
import { ListExporter } from '../exports/list-export';
import { VideoController } from './video.controller';
import { VideoLiveLinks, VideoSnapshotLinks } from './video-links';
import { VideoService } from './video.service';
import { VideoStreams } from './video-streams';

/** Video monitoring on the console port: the equipment, its export, and the live views through the video workers. */
@Module({
  controllers: [VideoController],
  providers: [VideoService, VideoStreams, VideoLiveLinks, VideoSnapshotLinks, ListExporter],
})
export class VideoModule {}
