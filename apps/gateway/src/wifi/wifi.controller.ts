import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  AC_FAMILY,
  AP_FAMILY,
  Button,
  EXPORT_FILE_NAMES,
  type AcRow,
  type ApRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type WifiClientPoint,
  type WifiClientRow,
  type WifiLoadPoint,
  type WifiRegionSeries,
  type WifiSessionRow,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { ListExporter, XLSX_CONTENT_TYPE } from '../exports/list-export';
import {
  AcAddOrEditDto,
  AcPageDto,
  ApAddOrEditDto,
  ApFiltersDto,
  ApPageDto,
  WifiClientPageDto,
  WifiClientSeriesDto,
  WifiDeviceFiltersDto,
  WifiLoadSeriesDto,
  WifiRegionSeriesDto,
  WifiSelectionDto,
  WifiSessionFiltersDto,
  WifiSessionPageDto,
} from './dto/wifi.dto';
import { exportSourceOf } from '../imports/import-table';
import { AC_IMPORT, AP_IMPORT } from '../imports/wifi-import.table';
import { WifiDevicesService } from './wifi-devices.service';
import { WifiSeriesService } from './wifi-series.service';
import { WifiTerminalsService } from './wifi-terminals.service';

/**
 * Wi-Fi (/wifiManage): access controllers (acManage), access points (apManage) and their clients (terminalManage).
 * The spec gates no Wi-Fi route: administrators and editors (the roles that receive the families' events) open it;
 * visitors and others are refused. Changes need their buttons: Add or Edit for saving, Delete, Open and close for a
 * reboot (as for LED and floor screens).
 */
@ApiTags('Wi-Fi')
@ApiBearerAuth()
@RequireRoles(...AC_FAMILY.eventRoles)
@Controller('wifi')
export class WifiController {
  constructor(
    private readonly devices: WifiDevicesService,
    private readonly terminals: WifiTerminalsService,
    private readonly series: WifiSeriesService,
    private readonly exporter: ListExporter,
  ) {}

  @Post('acPage')
  @HttpCode(200)
  acPage(@Body() dto: AcPageDto): Promise<PageResult<AcRow>> {
    return this.devices.acPage(dto);
  }

  @Get('acDetail')
  @RequireButton(Button.View)
  acDetail(@Query() q: IdQueryDto): Promise<AcRow> {
    return this.devices.acDetail(q.id);
  }

  /** The controller list as filtered on screen, as an xlsx download (the import's columns first: it imports again). */
  @Get('acExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  acExport(@Req() req: AppRequest, @Query() q: WifiDeviceFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.ac, exportSourceOf(AC_IMPORT), { ...q }, languageOf(req));
  }

  /** Adds a controller (no id) or changes one (Add or Edit button); a new one's MQTT login is answered once. */
  @Post('acAddOrEdit')
  @HttpCode(200)
  @Audit('Save Wi-Fi access controller')
  acSave(@CurrentCaller() caller: Caller, @Body() dto: AcAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.devices.saveAc(caller, dto);
  }

  /** Deletes a controller without access points. */
  @Get('acDel')
  @RequireButton(Button.Delete)
  @Audit('Delete Wi-Fi access controller')
  async acRemove(@Query() q: IdQueryDto): Promise<null> {
    await this.devices.removeAc(q.id);
    return null;
  }

  @Post('acReboot')
  @HttpCode(200)
  @RequireButton(AC_FAMILY.actions.reboot)
  @Audit('Reboot Wi-Fi access controllers')
  acReboot(@CurrentCaller() caller: Caller, @Body() dto: WifiSelectionDto): Promise<LampControlResult> {
    return this.devices.rebootAcs(caller, dto);
  }

  @Post('apPage')
  @HttpCode(200)
  apPage(@Body() dto: ApPageDto): Promise<PageResult<ApRow>> {
    return this.devices.apPage(dto);
  }

  @Get('apDetail')
  @RequireButton(Button.View)
  apDetail(@Query() q: IdQueryDto): Promise<ApRow> {
    return this.devices.apDetail(q.id);
  }

  /** The access point list as filtered on screen, as an xlsx download (the import's columns first: it imports again). */
  @Get('apExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  apExport(@Req() req: AppRequest, @Query() q: ApFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.exporter.send(reply, EXPORT_FILE_NAMES.ap, exportSourceOf(AP_IMPORT), { ...q }, languageOf(req));
  }

  /** Adds an access point under its controller (no id) or changes one; a new one's MQTT login is answered once. */
  @Post('apAddOrEdit')
  @HttpCode(200)
  @Audit('Save Wi-Fi access point')
  apSave(@CurrentCaller() caller: Caller, @Body() dto: ApAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.devices.saveAp(caller, dto);
  }

  @Get('apDel')
  @RequireButton(Button.Delete)
  @Audit('Delete Wi-Fi access point')
  async apRemove(@Query() q: IdQueryDto): Promise<null> {
    await this.devices.removeAp(q.id);
    return null;
  }

  @Post('apReboot')
  @HttpCode(200)
  @RequireButton(AP_FAMILY.actions.reboot)
  @Audit('Reboot Wi-Fi access points')
  apReboot(@CurrentCaller() caller: Caller, @Body() dto: WifiSelectionDto): Promise<LampControlResult> {
    return this.devices.rebootAps(caller, dto);
  }

  /** Clients associated now, the latest first. */
  @Post('terminalOnlinePage')
  @HttpCode(200)
  terminalOnline(@Body() dto: WifiClientPageDto): Promise<PageResult<WifiClientRow>> {
    return this.terminals.online(dto);
  }

  /** Ended sessions of a window of dates (at most 31 days), the latest first. */
  @Post('terminalHistoryPage')
  @HttpCode(200)
  terminalHistory(@Body() dto: WifiSessionPageDto): Promise<PageResult<WifiSessionRow>> {
    return this.terminals.history(dto);
  }

  /** The history as filtered on screen, as an xlsx download. */
  @Get('terminalHistoryExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  terminalHistoryExport(@Req() req: AppRequest, @Query() q: WifiSessionFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.terminals.exportHistory(reply, q, languageOf(req));
  }

  /** One device's CPU, memory and disk ratios (and an access point's clients) over the last day. */
  @Post('loadSeries')
  @HttpCode(200)
  loadSeries(@Body() dto: WifiLoadSeriesDto): Promise<WifiLoadPoint[]> {
    return this.series.load(dto);
  }

  /** The clients of the access points of a region, a controller or one access point over the last day. */
  @Post('clientSeries')
  @HttpCode(200)
  clientSeries(@Body() dto: WifiClientSeriesDto): Promise<WifiClientPoint[]> {
    return this.series.clients(dto);
  }

  /** The clients of several regions (each with its sub-regions) over the last day, a series per region side by side. */
  @Post('regionClientSeries')
  @HttpCode(200)
  regionClientSeries(@Req() req: AppRequest, @Body() dto: WifiRegionSeriesDto): Promise<WifiRegionSeries> {
    return this.series.regions(dto, languageOf(req));
  }

  /** The same comparison as an xlsx download: a row per step, a column per region (`regionIds=1,2,3`). */
  @Get('regionClientsExport')
  @ApiProduces(XLSX_CONTENT_TYPE)
  regionClientsExport(@Req() req: AppRequest, @Query() q: WifiRegionSeriesDto, @Res() reply: FastifyReply): Promise<void> {
    return this.series.exportRegions(reply, q, languageOf(req));
  }
}
