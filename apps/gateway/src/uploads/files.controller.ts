import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { extname } from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { SpreadsheetFormat, SpreadsheetInspection } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { AppRequest } from '../common/request-context';
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
  @ApiConsumes('multipart/form-data')
  async inspect(@Req() req: AppRequest): Promise<SpreadsheetInspection> {
    const upload = await this.uploads.receive(req, SPREADSHEET_RULE);
    try {
      let workbook: XLSX.WorkBook;
      try {
        workbook = XLSX.readFile(upload.path, { dense: true, cellDates: true });
      } catch {
        throw AppException.badRequest('onlyXlsx');
      }
      return {
        fileName: upload.originalName,
        format: extname(upload.path).slice(1) as SpreadsheetFormat,
        sizeBytes: upload.sizeBytes,
        sheets: workbook.SheetNames.map((name) => {
          const rows = XLSX.utils.sheet_to_json<unknown[]>(workbook.Sheets[name], { header: 1, blankrows: false });
          return { name, rows: Math.max(0, rows.length - 1), header: (rows[0] ?? []).map((c) => String(c ?? '')) };
        }),
      };
    } finally {
      await this.uploads.discard(upload);
    }
  }
}
