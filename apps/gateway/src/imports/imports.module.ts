import { Module } from '@nestjs/common';
import { ListExporter } from '../exports/list-export';
import { UploadService } from '../uploads/upload.service';
import { WorkbookReader } from '../uploads/workbook-reader.service';
import { ImportDownloadsController } from './import-downloads.controller';
import { ImportService } from './import.service';
import { ImportsController } from './imports.controller';

/** The imports themselves, on the upload port. */
@Module({
  controllers: [ImportsController],
  providers: [ImportService, UploadService, WorkbookReader],
})
export class ImportsModule {}

/** Templates, exports and error reports, on the console port. */
@Module({
  controllers: [ImportDownloadsController],
  providers: [ImportService, WorkbookReader, ListExporter],
})
export class ImportDownloadsModule {}
