import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  AC_FAMILY,
  ALARM_FAMILY,
  AP_FAMILY,
  BROADCAST_FAMILY,
  Button,
  IMPORT_FILE_NAMES,
  RADAR_FAMILY,
  Role,
  type UploadTarget,
} from '@sc/contracts';
import { CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { TerminalFiltersDto } from '../broadcast/dto/terminal.dto';
import { RadarFiltersDto } from '../radar/dto/radar.dto';
import { ListExporter, XLSX_CONTENT_TYPE, sendXlsx } from '../exports/list-export';
import { GatewayExportDto, LightExportDto, LoopExportDto, PoleExportDto, ReportQueryDto } from './dto/export.dto';
import { ImportService } from './import.service';
import { exportSourceOf, type ImportTable } from './import-table';
import { GATEWAY_IMPORT } from './gateway-import.table';
import { LIGHT_IMPORT } from './light-import.table';
import { LOOP_IMPORT } from './loop-import.table';
import { POLE_IMPORT } from './pole-import.table';
import { RADAR_IMPORT } from './radar-import.table';
import { TERMINAL_IMPORT } from './terminal-import.table';
import { AC_IMPORT, AP_IMPORT } from './wifi-import.table';
import { ALARM_IMPORT } from './alarm-import.table';

/**
 * Import templates, exports of the lists and the report of a refused import, on the console port: they are downloads,
 * not uploads. Templates need the Import data button; an export is a view of the list, for whoever may see it.
 */
@ApiTags('imports')
@ApiBearerAuth()
@Controller()
export class ImportDownloadsController {
  constructor(
    private readonly imports: ImportService,
    private readonly exporter: ListExporter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Where the browser sends imports: the upload port, on the host it opened the console with. */
  @Get('imports/uploadTarget')
  uploadTarget(): UploadTarget {
    return { port: this.config.uploadPort };
  }

  @Get('light/lightTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  lightTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, LIGHT_IMPORT, req);
  }

  @Get('light/lightExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  lightExport(@Req() req: AppRequest, @Query() q: LightExportDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, LIGHT_IMPORT, { ...q }, req);
  }

  @Get('light/gatewayTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  gatewayTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, GATEWAY_IMPORT, req);
  }

  @Get('light/gatewayExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  gatewayExport(@Req() req: AppRequest, @Query() q: GatewayExportDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, GATEWAY_IMPORT, { ...q }, req);
  }

  @Get('light/loopTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  loopTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, LOOP_IMPORT, req);
  }

  @Get('light/loopExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  loopExport(@Req() req: AppRequest, @Query() q: LoopExportDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, LOOP_IMPORT, { ...q }, req);
  }

  @Get('lamp/lampTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  lampTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, POLE_IMPORT, req);
  }

  @Get('lamp/lampExport')
  @RequireRoles(Role.Admin, Role.Visit)
  @ApiProduces(XLSX_CONTENT_TYPE)
  lampExport(@Req() req: AppRequest, @Query() q: PoleExportDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, POLE_IMPORT, { ...q }, req);
  }

  /** The broadcast terminals' template: for the roles of the family's pages, with Import data. */
  @Get('broadcast/terminalTemplate')
  @RequireRoles(...BROADCAST_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  terminalTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, TERMINAL_IMPORT, req);
  }

  /** The terminal list as filtered on screen, with its status and what each terminal plays: whoever sees the list. */
  @Get('broadcast/terminalExport')
  @RequireRoles(...BROADCAST_FAMILY.eventRoles)
  @ApiProduces(XLSX_CONTENT_TYPE)
  terminalExport(@Req() req: AppRequest, @Query() q: TerminalFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, TERMINAL_IMPORT, { ...q }, req);
  }

  /** The radars' template: for the roles of the family's pages, with Import data. */
  @Get('radar/radarTemplate')
  @RequireRoles(...RADAR_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  radarTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, RADAR_IMPORT, req);
  }

  /** The radar list as filtered on screen, with what the radars report: whoever sees the list. */
  @Get('radar/radarExport')
  @RequireRoles(...RADAR_FAMILY.eventRoles)
  @ApiProduces(XLSX_CONTENT_TYPE)
  radarExport(@Req() req: AppRequest, @Query() q: RadarFiltersDto, @Res() reply: FastifyReply): Promise<void> {
    return this.export(reply, RADAR_IMPORT, { ...q }, req);
  }

  /** The Wi-Fi access controllers' template (their export is the Wi-Fi module's acExport): with Import data. */
  @Get('wifi/acTemplate')
  @RequireRoles(...AC_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  acTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, AC_IMPORT, req);
  }

  /** The Wi-Fi access points' template (their export is the Wi-Fi module's apExport): with Import data. */
  @Get('wifi/apTemplate')
  @RequireRoles(...AP_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  apTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, AP_IMPORT, req);
  }

  /** The alarm columns' template (their export is the alarm module's columnExport): with Import data. */
  @Get('alarm/columnTemplate')
  @RequireRoles(...ALARM_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  columnTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    this.template(reply, ALARM_IMPORT, req);
  }

  /** The MQTT logins of the devices an import added: once, for the user who imported them, within an hour. */
  @Get('imports/credentials')
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async credentials(@Req() req: AppRequest, @CurrentCaller() caller: Caller, @Query() q: ReportQueryDto, @Res() reply: FastifyReply): Promise<void> {
    sendXlsx(reply, 'mqtt-logins', await this.imports.credentialsOf(caller, q.id, languageOf(req)));
  }

  /** Every bad cell of a refused import, for the user who tried it, for an hour. */
  @Get('imports/report')
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async report(@Req() req: AppRequest, @CurrentCaller() caller: Caller, @Query() q: ReportQueryDto, @Res() reply: FastifyReply): Promise<void> {
    sendXlsx(reply, 'import-errors', await this.imports.report(caller, q.id, languageOf(req)));
  }

  /** The header row in the caller's language and an example row. */
  private template(reply: FastifyReply, table: ImportTable, req: AppRequest): void {
    sendXlsx(reply, `${IMPORT_FILE_NAMES[table.kind].name}-template`, this.imports.template(table, languageOf(req)));
  }

  /** The list, filtered as on screen, with the import's columns (it can be edited and imported again), streamed. */
  private export(reply: FastifyReply, table: ImportTable, filters: Record<string, unknown>, req: AppRequest): Promise<void> {
    return this.exporter.send(reply, IMPORT_FILE_NAMES[table.kind].plural, exportSourceOf(table), filters, languageOf(req));
  }
}
