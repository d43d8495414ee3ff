import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { TerminalsController } from './terminals.controller';
import { TerminalHistoryService } from './terminal-history.service';
import { TerminalsService } from './terminals.service';

/** Broadcast: its terminals (list, records, volumes and playback); groups, media, playlists and tasks join here. */
@Module({
  imports: [DispatchModule],
  controllers: [TerminalsController],
  providers: [TerminalsService, TerminalHistoryService],
})
export class BroadcastModule {}
