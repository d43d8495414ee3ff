import type { CAMERA_NAME_MAX, OnlineState, VIDEO_DEVICE_CATEGORIES, VideoVendor } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

type Categories = typeof VIDEO_DEVICE_CATEGORIES;
/** A category's code (1 encoding, 5 checkpoint, 34 emergency, 45 display control, 53 IP speaker). */
export type VideoCategoryCode = Categories[keyof Categories]['code'];
/** A sub-type's code, of any category. */
export type VideoSubTypeCode = { [K in keyof Categories]: Categories[K]['types'][keyof Categories[K]['types']] }[keyof Categories];

/** The video equipment list's page and filters (the category tree's node among them), kept in the address. */
export interface CameraSearch extends PageSearch {
  name?: string;
  regionId?: number;
  vendor?: VideoVendor;
  networkStatus?: OnlineState;
  category?: VideoCategoryCode;
  subType?: VideoSubTypeCode;
}

export const validateCameraSearch = searchOf<CameraSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof CAMERA_NAME_MAX },
  regionId: 'int',
  vendor: { oneOf: allOf<VideoVendor>()(1, 2, 3) },
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  category: { oneOf: allOf<VideoCategoryCode>()(1, 5, 34, 45, 53) },
  subType: { oneOf: allOf<VideoSubTypeCode>()(1, 2, 4, 5, 6, 9, 10, 18, 19, 20, 22, 26, 43, 97) },
});
