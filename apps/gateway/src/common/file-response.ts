import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { AppException } from './app-exception';

/** The bytes a Range header asks for, inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header against a file of `size` bytes (RFC 9110, section 14): one range of bytes, `a-b`, `a-` or the
 * last `-n`, clipped to the file. `null` serves the whole file (no header, another unit, several ranges, a malformed
 * one: a server may ignore those); 'unsatisfiable' when the range starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export interface FileToSend {
  path: string;
  size: number;
  contentType: string;
  /** A strong validator of the content (a hash): If-Range compares against it. */
  etag: string;
  /** Content-Disposition's file name. */
  fileName: string;
}

/**
 * Answers a GET with a stored file, streamed from disk, honouring one byte range (206) so media players can seek and
 * downloads can resume; a range past the end answers 416. Sent outside the answer envelope.
 */
export function sendFile(reply: FastifyReply, headers: { range?: string; 'if-range'?: string }, file: FileToSend): void {
  const etag = `"${file.etag}"`;
  // If-Range: a range only of the content the client already has part of; otherwise the whole file.
  const ifRange = headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(headers.range, file.size) : null;
  void reply
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    .header('Cache-Control', 'private, no-cache')
    .header('Content-Disposition', `inline; filename="${file.fileName}"`);
  if (range === 'unsatisfiable') {
    void reply.status(416).header('Content-Range', `bytes */${file.size}`).send();
    return;
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  if (range) void reply.status(206).header('Content-Range', `bytes ${start}-${end}/${file.size}`);
  void reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', String(end - start + 1))
    .send(createReadStream(file.path, { start, end }));
}

/** A stored file to send, with its size read from disk; 404 'mediaFileMissing' when the file is gone. */
export async function storedFile(path: string, file: Omit<FileToSend, 'path' | 'size'>): Promise<FileToSend> {
  const size = await stat(path).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw AppException.notFound('mediaFileMissing');
  return { path, size, ...file };
}
