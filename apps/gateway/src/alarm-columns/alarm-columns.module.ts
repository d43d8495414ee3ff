import { Module } from '@nestjs/common';
import { BroadcastModule } from '../broadcast/broadcast.module';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { AlarmColumnsController } from './alarm-columns.controller';
import { AlarmColumnsService } from './alarm-columns.service';

/** One-key alarm columns on the console port: the list, their records, reboot, volume and announcements, the export. */
@Module({
  imports: [DispatchModule, BroadcastModule],
  controllers: [AlarmColumnsController],
  providers: [AlarmColumnsService, ListExporter],
})
export class AlarmColumnsModule {}
