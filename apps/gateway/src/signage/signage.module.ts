import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { SignageDevicesController } from './devices.controller';
import { SignageDevicesService } from './devices.service';
import { SignageGroupsController } from './groups.controller';
import { SignageGroupsService } from './groups.service';

/** Floor screens on the console port: players, their groups and their commands (docs/signage-devices.md). */
@Module({
  imports: [DispatchModule],
  controllers: [SignageDevicesController, SignageGroupsController],
  providers: [SignageDevicesService, SignageGroupsService],
})
export class SignageModule {}
