import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  FAMILIES,
  Role,
  familyEventRoles,
  type AlarmActionResult,
  type AlarmRow,
  type AlarmSummary,
  type FamilyName,
  type PageResult,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import type { Caller } from '../common/request-context';
import { AlarmsService } from './alarms.service';
import { AlarmActionDto, DeviceAlarmFamilyDto, DeviceAlarmPageDto } from './dto/alarm.dto';

/** The families whose alarms a caller sees: those whose events its roles receive (spec section 6: their pages' roles). */
export function familiesOf(caller: Caller): FamilyName[] {
  return FAMILIES.map((f) => f.family).filter((family) => familyEventRoles(family).some((role) => caller.roles.includes(role)));
}

/** One family (refused when the caller's roles do not see it), or all the caller sees. */
function scope(caller: Caller, family: FamilyName | undefined): FamilyName[] {
  const families = familiesOf(caller);
  if (family === undefined) return families;
  if (!families.includes(family)) throw AppException.forbidden();
  return [family];
}

/**
 * Every device family's alarms (/alarmManage/deviceAlarms): devices gone offline (their Last Will, or silent), loads
 * over their family's threshold, the lamps' faults and light conditions. A caller sees the alarms of the families its
 * roles see (the lamps' are the administrators', as the smart-lamp pages); an alarm of another family is unknown to
 * it. Acknowledging and clearing take the Edit button.
 */
@ApiTags('alarms')
@ApiBearerAuth()
@RequireRoles(Role.Admin, Role.Editor)
@Controller('alarms')
export class DeviceAlarmsController {
  constructor(private readonly alarms: AlarmsService) {}

  /** The families whose alarms the caller sees. */
  @Get('families')
  families(@CurrentCaller() caller: Caller): FamilyName[] {
    return familiesOf(caller);
  }

  @Post('page')
  @HttpCode(200)
  page(@CurrentCaller() caller: Caller, @Body() dto: DeviceAlarmPageDto): Promise<PageResult<AlarmRow>> {
    return this.alarms.page(dto, scope(caller, dto.family));
  }

  @Get('summary')
  summary(@CurrentCaller() caller: Caller, @Query() q: DeviceAlarmFamilyDto): Promise<AlarmSummary> {
    return this.alarms.summary(scope(caller, q.family));
  }

  @Post('acknowledge')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Acknowledge alarms')
  acknowledge(@CurrentCaller() caller: Caller, @Body() dto: AlarmActionDto): Promise<AlarmActionResult> {
    return this.alarms.acknowledge(caller, dto.ids, familiesOf(caller));
  }

  @Post('clear')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Clear alarms')
  clear(@CurrentCaller() caller: Caller, @Body() dto: AlarmActionDto): Promise<AlarmActionResult> {
    return this.alarms.clear(caller, dto.ids, familiesOf(caller));
  }
}
