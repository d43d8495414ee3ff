import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { DeviceGroupsService } from './device-groups.service';
import { EquipmentController } from './equipment.controller';
import { GatewaysService } from './gateways.service';
import { LightingController } from './lighting.controller';
import { LightingService } from './lighting.service';

/** Single lamps (their list, management and control) and the equipment they hang off: gateways, loops, device groups. */
@Module({
  imports: [DispatchModule],
  controllers: [LightingController, EquipmentController],
  providers: [LightingService, GatewaysService, DeviceGroupsService],
  exports: [LightingService],
})
export class LightingModule {}
