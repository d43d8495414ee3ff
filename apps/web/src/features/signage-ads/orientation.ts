import { ScreenOrientation } from '@sc/contracts';

/** The key of an orientation's label under signageAds:orientation (an i18next key cannot hold its ':'). */
export const orientationKey = (orientation: ScreenOrientation): 'portrait' | 'landscape' =>
  orientation === ScreenOrientation.Portrait ? 'portrait' : 'landscape';
