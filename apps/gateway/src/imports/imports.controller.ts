import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { AC_FAMILY, ALARM_FAMILY, AP_FAMILY, BROADCAST_FAMILY, Button, RADAR_FAMILY, Role, type ImportResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { languageOf, type AppRequest, type Caller } from '../common/request-context';
import { SPREADSHEET_RULE, UploadService } from '../uploads/upload.service';
import { ImportService } from './import.service';
import type { ImportTable } from './import-table';
import { GATEWAY_IMPORT } from './gateway-import.table';
import { LIGHT_IMPORT } from './light-import.table';
import { LOOP_IMPORT } from './loop-import.table';
import { POLE_IMPORT } from './pole-import.table';
import { RADAR_IMPORT } from './radar-import.table';
import { TERMINAL_IMPORT } from './terminal-import.table';
import { AC_IMPORT, AP_IMPORT } from './wifi-import.table';
import { ALARM_IMPORT } from './alarm-import.table';

/**
 * Imports on the upload port (8888), spec section 7: multipart with `file` (xlsx or xls, at most 5 MB), `groupId`
 * (required) and `dryRun`. Single lamps, gateways and loops are an administrator's (the smart-lamp pages are admin only); so are poles
 * (pole manage admits admin and visit, and a visitor only views). Broadcast terminals are for the roles of their
 * family's pages, as are radars, Wi-Fi access controllers and points and alarm columns. All need the Import data button.
 */
@ApiTags('imports')
@ApiBearerAuth()
@Controller()
export class ImportsController {
  constructor(
    private readonly uploads: UploadService,
    private readonly imports: ImportService,
  ) {}

  @Post('light/lightImport')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import lamps')
  lightImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(LIGHT_IMPORT, req, caller);
  }

  @Post('light/gatewayImport')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import lamp gateways')
  gatewayImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(GATEWAY_IMPORT, req, caller);
  }

  @Post('light/loopImport')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import lamp loops')
  loopImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(LOOP_IMPORT, req, caller);
  }

  @Post('lamp/lampImport')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import lamp poles')
  lampImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(POLE_IMPORT, req, caller);
  }

  @Post('broadcast/terminalImport')
  @HttpCode(200)
  @RequireRoles(...BROADCAST_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import broadcast terminals')
  terminalImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(TERMINAL_IMPORT, req, caller);
  }

  @Post('radar/radarImport')
  @HttpCode(200)
  @RequireRoles(...RADAR_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import radars')
  radarImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(RADAR_IMPORT, req, caller);
  }

  @Post('wifi/acImport')
  @HttpCode(200)
  @RequireRoles(...AC_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import Wi-Fi access controllers')
  acImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(AC_IMPORT, req, caller);
  }

  @Post('wifi/apImport')
  @HttpCode(200)
  @RequireRoles(...AP_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import Wi-Fi access points')
  apImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(AP_IMPORT, req, caller);
  }

  @Post('alarm/columnImport')
  @HttpCode(200)
  @RequireRoles(...ALARM_FAMILY.eventRoles)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  @Audit('Import alarm columns')
  columnImport(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<ImportResult> {
    return this.run(ALARM_IMPORT, req, caller);
  }

  private async run(table: ImportTable, req: AppRequest, caller: Caller): Promise<ImportResult> {
    const upload = await this.uploads.receive(req, SPREADSHEET_RULE);
    try {
      return await this.imports.importFile(table, upload, caller, languageOf(req));
    } finally {
      await this.uploads.discard(upload);
    }
  }
}
