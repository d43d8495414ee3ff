/** Seconds as mm:ss, or h:mm:ss from an hour on (rounded to the second). */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** Width × height. */
export const formatResolution = (width: number | null, height: number | null): string => (width && height ? `${width}×${height}` : '—');
