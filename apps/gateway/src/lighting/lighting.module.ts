import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { LightingController } from './lighting.controller';
import { LightingService } from './lighting.service';

/** Single lamps: their list, management and control. */
@Module({
  imports: [DispatchModule],
  controllers: [LightingController],
  providers: [LightingService],
})
export class LightingModule {}
