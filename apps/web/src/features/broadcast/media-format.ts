import { numberFormatter } from '@/utils/format';

/** Seconds as m:ss, or h:mm:ss from an hour on (rounded to the second). */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Bytes with the spec's suffixes: 1.23MB. */
export const formatBytes = (bytes: number): string => `${numberFormatter(bytes, 2)}B`;
/** 64kbps. */
export const formatBitrate = (bitsPerSecond: number): string => `${numberFormatter(bitsPerSecond, 0)}bps`;
/** 44.1kHz. */
export const formatSampleRate = (hz: number): string => `${numberFormatter(hz, 1)}Hz`;
