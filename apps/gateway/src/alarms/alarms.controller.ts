import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, DeviceFamily, Role, type AlarmActionResult, type AlarmRow, type AlarmSummary, type PageResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import type { Caller } from '../common/request-context';
import { AlarmsService } from './alarms.service';
import { AlarmActionDto, AlarmPageDto } from './dto/alarm.dto';

/**
 * Lamp alarms (/smartLamp/lampAlarm): admin only like every smart-lamp page (spec section 6). Acknowledging and
 * clearing change the record, so they take the Edit button as well.
 */
/** This API's alarms: the lamps' (the smart-lamp pages'); every family's are under /api/alarms. */
const LAMPS = [DeviceFamily.Lamp] as const;

@ApiTags('alarms')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class AlarmsController {
  constructor(private readonly alarms: AlarmsService) {}

  /** Alarms by region (and sub-regions), kind, fault code, state and time raised; newest first. Also the history. */
  @Post('alarmPage')
  @HttpCode(200)
  page(@Body() dto: AlarmPageDto): Promise<PageResult<AlarmRow>> {
    return this.alarms.page(dto, LAMPS);
  }

  @Get('alarmSummary')
  summary(): Promise<AlarmSummary> {
    return this.alarms.summary(LAMPS);
  }

  @Post('alarmAcknowledge')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Acknowledge alarms')
  acknowledge(@CurrentCaller() caller: Caller, @Body() dto: AlarmActionDto): Promise<AlarmActionResult> {
    return this.alarms.acknowledge(caller, dto.ids, LAMPS);
  }

  @Post('alarmClear')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Clear alarms')
  clear(@CurrentCaller() caller: Caller, @Body() dto: AlarmActionDto): Promise<AlarmActionResult> {
    return this.alarms.clear(caller, dto.ids, LAMPS);
  }
}
