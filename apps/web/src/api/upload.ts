import { i18next } from '@/i18n';
import { getToken } from '@/auth/token';
import { ApiError, REQUEST_TIMEOUT_MS, buildUrl, fail, requestHeaders, settle, type Answer } from './request';

/**
 * Sends a form with a file, reporting how much of it has gone (`onProgress`, 0 to 1), with the envelope handling of
 * `request`. fetch cannot tell upload progress, so this is XMLHttpRequest. A large file may take longer than the 60 s
 * of a call: it times out after 60 s without progress instead.
 */
export function upload<T>(
  path: string,
  body: FormData,
  options: { base?: string; onProgress?: (fraction: number) => void; silent?: boolean } = {},
): Promise<T> {
  const madeFor = getToken();
  const madeAt = performance.now();
  const quiet = () => options.silent || getToken() !== madeFor;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => xhr.abort(), REQUEST_TIMEOUT_MS);
    };
    const finish = (settleAnswer: () => T) => {
      clearTimeout(idle);
      try {
        resolve(settleAnswer());
      } catch (error) {
        reject(error);
      }
    };
    xhr.open('POST', buildUrl(path, undefined, options.base));
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(requestHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      watch();
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () =>
      finish(() => {
        let answer: Answer<T> = null;
        try {
          answer = JSON.parse(xhr.responseText) as Answer<T>;
        } catch {
          answer = null;
        }
        return settle<T>(answer, xhr.status, quiet(), madeAt);
      });
    xhr.onerror = xhr.onabort = () => finish(() => fail(new ApiError(i18next.t('messages:networkError'), null), quiet()));
    watch();
    xhr.send(body);
  });
}
