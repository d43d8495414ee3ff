import { Module } from '@nestjs/common';
import { AlarmsController } from './alarms.controller';
import { AlarmsService } from './alarms.service';
import { DeviceAlarmsController } from './device-alarms.controller';

/** Device alarms: the lamps' page and every family's, acknowledge and clear (the workers raise and clear them). */
@Module({
  controllers: [AlarmsController, DeviceAlarmsController],
  providers: [AlarmsService],
})
export class AlarmsModule {}
