import { i18next } from '@/i18n';
import { notifyError } from '@/components/notify';
import { downloadFileName } from '@/utils/format';
import { buildUrl, requestHeaders, ApiError, type QueryValue } from './request';

/**
 * Downloads a file from the API and saves it as date-time + name + extension (spec section 8). When the server
 * answers with JSON instead of a file, its message (or 'Download Error') is shown and nothing is saved.
 */
export async function downloadFile(path: string, name: string, extension: string, params?: Record<string, QueryValue>): Promise<void> {
  let blob: Blob;
  try {
    const response = await fetch(buildUrl(path, params), { headers: requestHeaders(), credentials: 'include', signal: AbortSignal.timeout(60_000) });
    blob = await response.blob();
  } catch {
    notifyError(i18next.t('messages:networkError'));
    throw new ApiError(i18next.t('messages:networkError'), null);
  }
  const message = await jsonMessage(blob);
  if (message !== null) {
    const text = message || i18next.t('messages:downloadError');
    notifyError(text);
    throw new ApiError(text, null);
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadFileName(name, extension);
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The message of a blob that is really a JSON answer ('' when it has none), or null for a real file. */
export async function jsonMessage(blob: Blob): Promise<string | null> {
  if (!blob.type.includes('json')) return null;
  try {
    const body = JSON.parse(await blob.text()) as { message?: string; msg?: string };
    return body.message || body.msg || '';
  } catch {
    return '';
  }
}
