import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  Button,
  EXPORT_FILE_NAMES,
  LED_FAMILY,
  type LampControlResult,
  type LedDaylightResult,
  type LedRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { ListExporter, XLSX_CONTENT_TYPE } from '../exports/list-export';
import {
  LedAddOrEditDto,
  LedBrightnessDto,
  LedDaylightDto,
  LedFiltersDto,
  LedPageDto,
  LedScreenDto,
  LedSelectionDto,
  LedVolumeDto,
} from './dto/led.dto';
import { LED_EXPORT } from './led-filters';
import { LedService } from './led.service';

/**
 * LED screens (/ledManage/ledEquipmentManage). The spec gates no LED route: administrators and editors (the roles
 * that receive the family's events) open it; visitors and others are refused. Changes need their buttons: Add or
 * Edit for saving, Delete, Edit for brightness, volume, the time sync and the daylight rule (settings of the screen),
 * Open and close for bright or black and a reboot (what the screen shows).
 */
@ApiTags('LED screens')
@ApiBearerAuth()
@RequireRoles(...LED_FAMILY.eventRoles)
@Controller('led')
export class LedController {
  constructor(
    private readonly led: LedService,
    private readonly exporter: ListExporter,
  ) {}

  @Post('ledPage')
  @HttpCode(200)
  page(@Body() dto: LedPageDto): Promise<PageResult<LedRow>> {
    return this.led.page(dto);
  }

  @Get('ledDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<LedRow> {
    return this.led.detail(q.id);
  }

  /** The list as filtered on screen, as an xlsx download. */
  @Get('ledExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  export(@Req() req: AppRequest, @Query() q: LedFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.led, LED_EXPORT, { ...q }, languageOf(req));
  }

  /** Adds a screen (no id) or changes one (Add or Edit button); a new one's MQTT login is answered once. */
  @Post('ledAddOrEdit')
  @HttpCode(200)
  @Audit('Save LED screen')
  save(@CurrentCaller() caller: Caller, @Body() dto: LedAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.led.save(caller, dto);
  }

  @Get('ledDel')
  @RequireButton(Button.Delete)
  @Audit('Delete LED screen')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.led.remove(q.id);
    return null;
  }

  @Post('ledBrightness')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.brightness)
  @Audit('Set LED brightness')
  brightness(@CurrentCaller() caller: Caller, @Body() dto: LedBrightnessDto): Promise<LampControlResult> {
    return this.led.brightness(caller, dto);
  }

  @Post('ledVolume')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.volume)
  @Audit('Set LED volume')
  volume(@CurrentCaller() caller: Caller, @Body() dto: LedVolumeDto): Promise<LampControlResult> {
    return this.led.volume(caller, dto);
  }

  @Post('ledScreen')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.screen)
  @Audit('Set LED screen state')
  screen(@CurrentCaller() caller: Caller, @Body() dto: LedScreenDto): Promise<LampControlResult> {
    return this.led.screen(caller, dto);
  }

  @Post('ledReboot')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.reboot)
  @Audit('Reboot LED screens')
  reboot(@CurrentCaller() caller: Caller, @Body() dto: LedSelectionDto): Promise<LampControlResult> {
    return this.led.reboot(caller, dto);
  }

  @Post('ledSyncTime')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.syncTime)
  @Audit('Sync LED time')
  syncTime(@CurrentCaller() caller: Caller, @Body() dto: LedSelectionDto): Promise<LampControlResult> {
    return this.led.syncTime(caller, dto);
  }

  /** The daylight brightness rule on the selected screens, or off them. */
  @Post('ledDaylight')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.brightness)
  @Audit('Set LED daylight rule')
  daylight(@CurrentCaller() caller: Caller, @Body() dto: LedDaylightDto): Promise<LedDaylightResult> {
    return this.led.daylight(caller, dto);
  }
}
