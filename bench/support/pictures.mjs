// Pictures the benchmarks upload as media (LED tasks, floor-screen materials), made with sharp.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** A PNG of random pixels of about `kb` kB (noise does not compress), or a tiny one-colour PNG with `kb` 0. */
export function picture(kb) {
  if (kb === 0)
    return sharp({ create: { width: 16, height: 16, channels: 3, background: '#1366ec' } })
      .png()
      .toBuffer();
  const side = Math.ceil(Math.sqrt((kb * 1024) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}
