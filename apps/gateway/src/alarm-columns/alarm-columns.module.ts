import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { AlarmColumnsController } from './alarm-columns.controller';
import { AlarmColumnsService } from './alarm-columns.service';

/** One-key alarm columns on the console port: the list, their records, reboot and volume, the export. */
@Module({
  imports: [DispatchModule],
  controllers: [AlarmColumnsController],
  providers: [AlarmColumnsService, ListExporter],
})
export class AlarmColumnsModule {}
