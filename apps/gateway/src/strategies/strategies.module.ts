import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { StrategiesController } from './strategies.controller';
import { StrategiesService } from './strategies.service';

/** Lighting strategies: the strategy list, distribution to lamps, and each lamp's effective schedule. */
@Module({
  imports: [DispatchModule],
  controllers: [StrategiesController],
  providers: [StrategiesService],
  exports: [StrategiesService],
})
export class StrategiesModule {}
