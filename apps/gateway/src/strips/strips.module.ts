import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { StrategiesModule } from '../strategies/strategies.module';
import { StripStrategiesController } from './strip-strategies.controller';
import { StripStrategiesService } from './strip-strategies.service';
import { StripsController } from './strips.controller';
import { StripsService } from './strips.service';

/** Strip lights: their list, management, light effects, and strip strategies on the lighting strategies' engine. */
@Module({
  imports: [DispatchModule, StrategiesModule],
  controllers: [StripsController, StripStrategiesController],
  providers: [StripsService, StripStrategiesService],
})
export class StripsModule {}
