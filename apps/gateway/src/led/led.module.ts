import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { LedController } from './led.controller';
import { LedService } from './led.service';

/** LED screens on the console port: their list and export, records, commands and daylight rule. */
@Module({
  imports: [DispatchModule],
  controllers: [LedController],
  providers: [LedService, ListExporter],
})
export class LedModule {}
