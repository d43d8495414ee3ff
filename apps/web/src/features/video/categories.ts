import type { TFunction } from 'i18next';
import { CameraAccess, VIDEO_CATEGORY_LIST, hostOf, rtspAddressOf, type CameraRecord, type VideoVendor } from '@sc/contracts';

/** A category of the spec's list by its code, or undefined. */
export const categoryOf = (code: number | null | undefined) => VIDEO_CATEGORY_LIST.find((c) => c.code === code);

/** A category's name in the interface language (its code when unknown). */
export function categoryLabel(t: TFunction, code: number): string {
  const category = categoryOf(code);
  return category ? t(`video:category.${category.key}`) : String(code);
}

/** A sub-type's name in the interface language ('' for none, its code when unknown). */
export function subTypeLabel(t: TFunction, category: number, subType: number | null): string {
  if (subType === null) return '';
  const found = categoryOf(category);
  const type = found?.types.find((s) => s.code === subType);
  return found && type ? t(`video:subType.${found.key}.${type.key}`) : String(subType);
}

/** The vendor's word. */
export const vendorLabel = (t: TFunction, vendor: VideoVendor): string => t(`video:vendor.${vendor}`);

/** The key of an access answer worth a badge (a refused login, no stream at the address), or null. */
export function accessKey(access: CameraAccess | null): 'unauthorized' | 'noStream' | null {
  if (access === CameraAccess.Unauthorized) return 'unauthorized';
  if (access === CameraAccess.NoStream) return 'noStream';
  return null;
}

/** Where the equipment is, as the list shows it: its own RTSP address, else its address and RTSP port ('' for none). */
export function addressOf(row: Pick<CameraRecord, 'ip' | 'rtspPort' | 'rtspUrl'>): string {
  if (row.rtspUrl) return row.rtspUrl;
  if (!row.ip) return '';
  return `${hostOf(row.ip)}:${row.rtspPort}`;
}

/** The vendor's usual RTSP address for the values typed (`<ip>` standing in for an address not typed yet), or null. */
export function usualRtspAddress(values: {
  vendor: VideoVendor | null;
  ip: string;
  rtspPort: number | string;
  channel: number | string;
}): string | null {
  if (values.vendor === null) return null;
  const port = Number(values.rtspPort) || 554;
  const channel = Number(values.channel) || 1;
  return rtspAddressOf({ vendor: values.vendor, ip: values.ip.trim() || '<ip>', rtspPort: port, channel, rtspUrl: '' });
}
