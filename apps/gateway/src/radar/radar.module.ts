import { Module } from '@nestjs/common';
import { RadarController } from './radar.controller';
import { RadarGroupsService } from './radar-groups.service';
import { RadarStrategiesService } from './radar-strategies.service';
import { RadarService } from './radar.service';

/** Radars on the console port: terminals (list, records), groups and strategies. Imports and exports are in the imports module. */
@Module({
  controllers: [RadarController],
  providers: [RadarService, RadarGroupsService, RadarStrategiesService],
})
export class RadarModule {}
