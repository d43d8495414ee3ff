import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  RADAR_FAMILY,
  type MqttCredentials,
  type PageResult,
  type RadarGroupDetail,
  type RadarGroupRow,
  type RadarLampOption,
  type RadarRow,
  type RadarStrategyRow,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto, TextField } from '../common/fields';
import type { Caller } from '../common/request-context';
import { RadarAddOrEditDto, RadarGroupDto, RadarGroupPageDto, RadarPageDto, RadarStrategyDto, RadarStrategyPageDto } from './dto/radar.dto';
import { RadarGroupsService } from './radar-groups.service';
import { RadarStrategiesService } from './radar-strategies.service';
import { RadarService } from './radar.service';

class LampOptionsQueryDto {
  @TextField({ max: 64, required: false, description: 'Part of the lamp name or code, any case' })
  keyword?: string;
}

/**
 * Radars (/radarManage): terminals, groups and strategies. The spec gates no radar route: administrators and editors
 * (the roles that receive the family's events) open it; visitors and others are refused. Saving needs Add or Edit,
 * deleting Delete.
 */
@ApiTags('radars')
@ApiBearerAuth()
@RequireRoles(...RADAR_FAMILY.eventRoles)
@Controller('radar')
export class RadarController {
  constructor(
    private readonly radars: RadarService,
    private readonly groups: RadarGroupsService,
    private readonly strategies: RadarStrategiesService,
  ) {}

  @Post('radarPage')
  @HttpCode(200)
  page(@Body() dto: RadarPageDto): Promise<PageResult<RadarRow>> {
    return this.radars.page(dto);
  }

  @Get('radarDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<RadarRow> {
    return this.radars.detail(q.id);
  }

  /** Adds a radar (no id) or changes one (Add or Edit button); a new one's MQTT login is answered once. */
  @Post('radarAddOrEdit')
  @HttpCode(200)
  @Audit('Save radar')
  save(@CurrentCaller() caller: Caller, @Body() dto: RadarAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.radars.save(caller, dto);
  }

  @Get('radarDel')
  @RequireButton(Button.Delete)
  @Audit('Delete radar')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.radars.remove(q.id);
    return null;
  }

  /** Lamps a group may light, for the group form. */
  @Get('lampOptions')
  lampOptions(@Query() q: LampOptionsQueryDto): Promise<RadarLampOption[]> {
    return this.radars.lampOptions(q.keyword);
  }

  @Post('groupPage')
  @HttpCode(200)
  groupPage(@Body() dto: RadarGroupPageDto): Promise<PageResult<RadarGroupRow>> {
    return this.groups.page(dto);
  }

  @Get('groupDetail')
  groupDetail(@Query() q: IdQueryDto): Promise<RadarGroupDetail> {
    return this.groups.detail(q.id);
  }

  @Get('groupOptions')
  groupOptions(): Promise<RadarGroupRow[]> {
    return this.groups.options();
  }

  /** Adds a group (no id, Add button) or changes one (Edit button): its name, radars and lamps. */
  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save radar group')
  saveGroup(@CurrentCaller() caller: Caller, @Body() dto: RadarGroupDto): Promise<{ id: number }> {
    return this.groups.save(caller, dto);
  }

  @Get('groupDel')
  @RequireButton(Button.Delete)
  @Audit('Delete radar group')
  async removeGroup(@Query() q: IdQueryDto): Promise<null> {
    await this.groups.remove(q.id);
    return null;
  }

  @Post('strategyPage')
  @HttpCode(200)
  strategyPage(@Body() dto: RadarStrategyPageDto): Promise<PageResult<RadarStrategyRow>> {
    return this.strategies.page(dto);
  }

  /** Adds a strategy (no id, Add button) or changes one (Edit button): its group and its events. */
  @Post('strategyAddOrEdit')
  @HttpCode(200)
  @Audit('Save radar strategy')
  saveStrategy(@CurrentCaller() caller: Caller, @Body() dto: RadarStrategyDto): Promise<{ id: number }> {
    return this.strategies.save(caller, dto);
  }

  @Get('strategyDel')
  @RequireButton(Button.Delete)
  @Audit('Delete radar strategy')
  async removeStrategy(@Query() q: IdQueryDto): Promise<null> {
    await this.strategies.remove(q.id);
    return null;
  }
}
