import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Button, IMPORT_FILE_NAMES, Role, type UploadTarget } from '@sc/contracts';
import { CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { GatewayExportDto, LightExportDto, LoopExportDto, PoleExportDto, ReportQueryDto } from './dto/export.dto';
import { ImportService, XLSX_CONTENT_TYPE } from './import.service';
import { GATEWAY_IMPORT } from './gateway-import.table';
import { LIGHT_IMPORT } from './light-import.table';
import { LOOP_IMPORT } from './loop-import.table';
import { POLE_IMPORT } from './pole-import.table';

/** Sends a workbook as a file download (not in the answer envelope). */
function sendWorkbook(reply: FastifyReply, name: string, book: Buffer): void {
  void reply
    .header('Content-Type', XLSX_CONTENT_TYPE)
    .header('Content-Disposition', `attachment; filename="${name}.xlsx"`)
    .header('Cache-Control', 'no-store')
    .send(book);
}

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
    sendWorkbook(reply, `${IMPORT_FILE_NAMES.light.name}-template`, this.imports.template(LIGHT_IMPORT, languageOf(req)));
  }

  @Get('light/lightExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async lightExport(@Req() req: AppRequest, @Query() q: LightExportDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, IMPORT_FILE_NAMES.light.plural, await this.imports.export(LIGHT_IMPORT, { ...q }, languageOf(req)));
  }

  @Get('light/gatewayTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  gatewayTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    sendWorkbook(reply, `${IMPORT_FILE_NAMES.gateway.name}-template`, this.imports.template(GATEWAY_IMPORT, languageOf(req)));
  }

  @Get('light/gatewayExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async gatewayExport(@Req() req: AppRequest, @Query() q: GatewayExportDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, IMPORT_FILE_NAMES.gateway.plural, await this.imports.export(GATEWAY_IMPORT, { ...q }, languageOf(req)));
  }

  @Get('light/loopTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  loopTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    sendWorkbook(reply, `${IMPORT_FILE_NAMES.loop.name}-template`, this.imports.template(LOOP_IMPORT, languageOf(req)));
  }

  @Get('light/loopExport')
  @RequireRoles(Role.Admin)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async loopExport(@Req() req: AppRequest, @Query() q: LoopExportDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, IMPORT_FILE_NAMES.loop.plural, await this.imports.export(LOOP_IMPORT, { ...q }, languageOf(req)));
  }

  @Get('lamp/lampTemplate')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  lampTemplate(@Req() req: AppRequest, @Res() reply: FastifyReply): void {
    sendWorkbook(reply, `${IMPORT_FILE_NAMES.lamp.name}-template`, this.imports.template(POLE_IMPORT, languageOf(req)));
  }

  @Get('lamp/lampExport')
  @RequireRoles(Role.Admin, Role.Visit)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async lampExport(@Req() req: AppRequest, @Query() q: PoleExportDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, IMPORT_FILE_NAMES.lamp.plural, await this.imports.export(POLE_IMPORT, { ...q }, languageOf(req)));
  }

  /** The MQTT logins of the devices an import added: once, for the user who imported them, within an hour. */
  @Get('imports/credentials')
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async credentials(@Req() req: AppRequest, @CurrentCaller() caller: Caller, @Query() q: ReportQueryDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, 'mqtt-logins', await this.imports.credentialsOf(caller, q.id, languageOf(req)));
  }

  /** Every bad cell of a refused import, for the user who tried it, for an hour. */
  @Get('imports/report')
  @RequireButton(Button.ImportData)
  @ApiProduces(XLSX_CONTENT_TYPE)
  async report(@Req() req: AppRequest, @CurrentCaller() caller: Caller, @Query() q: ReportQueryDto, @Res() reply: FastifyReply): Promise<void> {
    sendWorkbook(reply, 'import-errors', await this.imports.report(caller, q.id, languageOf(req)));
  }
}
