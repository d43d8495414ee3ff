import { Module } from '@nestjs/common';
import { EnergyController } from './energy.controller';
import { EnergyService } from './energy.service';

/** Lamp energy by region, per lamp and over time (the lighting worker integrates it from power readings). */
@Module({
  controllers: [EnergyController],
  providers: [EnergyService],
})
export class EnergyModule {}
