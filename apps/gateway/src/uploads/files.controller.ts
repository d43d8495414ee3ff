import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { extname } from 'node:path';
import { Button, type SpreadsheetFormat, type SpreadsheetInspection } from '@sc/contracts';
import { CurrentCaller, RequireButton } from '../common/decorators';
import type { AppRequest, Caller } from '../common/request-context';
import { SPREADSHEET_RULE, UploadService } from './upload.service';
import { WorkbookReader } from './workbook-reader.service';

/** Served on the upload port (8888). Import routes of the device modules use the same UploadService. */
@ApiTags('files')
@ApiBearerAuth()
@Controller('files')
export class FilesController {
  constructor(
    private readonly uploads: UploadService,
    private readonly workbooks: WorkbookReader,
  ) {}

  /** Reads a workbook without importing anything: its sheets, row counts and header rows, for an import preview. */
  @Post('inspect')
  @HttpCode(200)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  async inspect(@Req() req: AppRequest, @CurrentCaller() caller: Caller): Promise<SpreadsheetInspection> {
    const upload = await this.uploads.receive(req, SPREADSHEET_RULE);
    try {
      const sheets = await this.workbooks.inspect(caller.userId, upload.path);
      return {
        fileName: upload.originalName,
        format: extname(upload.path).slice(1) as SpreadsheetFormat,
        sizeBytes: upload.sizeBytes,
        sheets: sheets.map(({ name, rowCount, header }) => ({ name, rows: rowCount, header })),
      };
    } finally {
      await this.uploads.discard(upload);
    }
  }
}
