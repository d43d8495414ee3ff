import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type EnergyLampRow, type EnergySeries, type EnergyTree, type PageResult } from '@sc/contracts';
import { Audit, RequireButton, RequireRoles } from '../common/decorators';
import { EnergyLampPageDto, EnergyQueryDto, EnergySeriesDto, LampRatedPowerDto } from './dto/energy.dto';
import { EnergyService } from './energy.service';

/** Lamp energy (/smartLamp/energy): admin only like every smart-lamp page (spec section 6); a rated power takes Edit. */
@ApiTags('energy')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class EnergyController {
  constructor(private readonly energy: EnergyService) {}

  /** Energy, full-power energy and saving of a day or month, by region, rolled up the region tree. */
  @Get('energyTree')
  tree(@Query() q: EnergyQueryDto): Promise<EnergyTree> {
    return this.energy.tree(q);
  }

  /** Per lamp, the largest users first. */
  @Post('energyLampPage')
  @HttpCode(200)
  lampPage(@Body() dto: EnergyLampPageDto): Promise<PageResult<EnergyLampRow>> {
    return this.energy.lampPage(dto);
  }

  /** Hourly (day) or daily (month) points, for every lamp, a region (and below) or one lamp. */
  @Get('energySeries')
  series(@Query() q: EnergySeriesDto): Promise<EnergySeries> {
    return this.energy.series(q);
  }

  /** Sets the rated power (W) of lamps; full-power energy and the saving follow, for the past too. */
  @Post('lampRatedPower')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Set lamp rated power')
  ratedPower(@Body() dto: LampRatedPowerDto): Promise<{ changed: number }> {
    return this.energy.setRatedPower(dto);
  }
}
