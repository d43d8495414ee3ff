import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { BroadcastGroupsController } from './groups.controller';
import { BroadcastGroupsService } from './groups.service';
import { TerminalsController } from './terminals.controller';
import { TerminalsService } from './terminals.service';

/** Broadcast: its terminals (list, records, volumes and playback) and their groups; media, playlists and tasks join here. */
@Module({
  imports: [DispatchModule],
  controllers: [TerminalsController, BroadcastGroupsController],
  providers: [TerminalsService, BroadcastGroupsService],
})
export class BroadcastModule {}
