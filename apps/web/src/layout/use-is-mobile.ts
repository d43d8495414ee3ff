import { useMediaQuery } from '@mantine/hooks';

/** The console's mobile layout (spec section 9: below 992 px); forms open full screen there. */
export const MOBILE_QUERY = '(max-width: 991.98px)';

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY, window.matchMedia(MOBILE_QUERY).matches) ?? false;
}
