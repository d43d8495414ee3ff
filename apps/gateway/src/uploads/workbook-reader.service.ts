import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { extname } from 'node:path';
import { ResultCode, type SpreadsheetFormat } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SpreadsheetUnreadableError, readSpreadsheet, type ReadOptions, type SheetContent } from './spreadsheet-reader';
import { WorkbookOutOfBounds, checkWorkbookBounds } from './workbook-bounds';

/**
 * The users whose workbook this process is reading (one each). Process-wide on purpose: every module that reads a workbook shares
 * the same slots, however many instances of the service Nest creates.
 */
const reading = new Set<number>();

/**
 * Reads an uploaded workbook for an import or a preview, within bounds: one workbook per user at a time and at most
 * `importConcurrency` per process (a second one is refused at once with a translated 429, nothing queues up in
 * memory), and only after its zip directory and inflated content are within WORKBOOK_BOUNDS.
 */
@Injectable()
export class WorkbookReader {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async read(userId: number, path: string, options: ReadOptions): Promise<SheetContent[]> {
    const release = this.take(userId);
    try {
      await checkWorkbookBounds(path, extname(path).slice(1) as SpreadsheetFormat);
      return await readSpreadsheet(path, options);
    } catch (err) {
      throw refusal(err);
    } finally {
      release();
    }
  }

  /** Takes the user's slot, one per user, which also bounds the process: `reading.size` users at once. */
  private take(userId: number): () => void {
    const busy = (key: 'importBusyUser' | 'importBusyServer') => new AppException(HttpStatus.TOO_MANY_REQUESTS, ResultCode.TooManyRequests, key);
    if (reading.has(userId)) throw busy('importBusyUser');
    if (reading.size >= this.config.importConcurrency) throw busy('importBusyServer');
    reading.add(userId);
    return () => reading.delete(userId);
  }
}

/** The translated answer for a workbook that could not be read; anything else is passed on as it was. */
function refusal(err: unknown): unknown {
  if (err instanceof SpreadsheetUnreadableError) return AppException.badRequest('onlyXlsx');
  if (!(err instanceof WorkbookOutOfBounds)) return err;
  const { problem } = err;
  switch (problem.kind) {
    case 'unreadable':
      return AppException.badRequest('onlyXlsx');
    case 'tooLarge':
      return new AppException(HttpStatus.PAYLOAD_TOO_LARGE, ResultCode.PayloadTooLarge, 'workbookTooLarge', { maxMb: problem.maxMb });
    case 'tooManyRows':
      return AppException.badRequest('importTooManyRows', { max: problem.max });
    case 'tooManyCells':
      return AppException.badRequest('importTooManyCells', { max: problem.max });
  }
}
