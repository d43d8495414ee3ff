import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { extname } from 'node:path';
import { Button, type SpreadsheetFormat, type SpreadsheetInspection } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { RequireButton } from '../common/decorators';
import type { AppRequest } from '../common/request-context';
import { SpreadsheetUnreadableError, readSpreadsheet } from './spreadsheet-reader';
import { SPREADSHEET_RULE, UploadService } from './upload.service';

/** Served on the upload port (8888). Import routes of the device modules use the same UploadService. */
@ApiTags('files')
@ApiBearerAuth()
@Controller('files')
export class FilesController {
  constructor(private readonly uploads: UploadService) {}

  /** Reads a workbook without importing anything: its sheets, row counts and header rows, for an import preview. */
  @Post('inspect')
  @HttpCode(200)
  @RequireButton(Button.ImportData)
  @ApiConsumes('multipart/form-data')
  async inspect(@Req() req: AppRequest): Promise<SpreadsheetInspection> {
    const upload = await this.uploads.receive(req, SPREADSHEET_RULE);
    try {
      const sheets = await readSpreadsheet(upload.path, { maxRows: 0 });
      return {
        fileName: upload.originalName,
        format: extname(upload.path).slice(1) as SpreadsheetFormat,
        sizeBytes: upload.sizeBytes,
        sheets: sheets.map(({ name, rowCount, header }) => ({ name, rows: rowCount, header })),
      };
    } catch (err) {
      if (err instanceof SpreadsheetUnreadableError) throw AppException.badRequest('onlyXlsx');
      throw err;
    } finally {
      await this.uploads.discard(upload);
    }
  }
}
