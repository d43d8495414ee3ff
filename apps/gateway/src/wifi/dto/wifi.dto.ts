import { applyDecorators } from '@nestjs/common';
import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsInt, Matches, Max, Min } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  MAC_PATTERN,
  OnlineState,
  SSID_MAX,
  WIFI_LABEL_MAX,
  WIFI_NAME_MAX,
  WIFI_REGION_SERIES_MAX,
  type AcAddOrEditRequest,
  type ApAddOrEditRequest,
  type ApPageQuery,
  type WifiClientFilters,
  type WifiClientSeriesRequest,
  type WifiLoadSeriesRequest,
  type WifiClientPageQuery,
  type WifiDevicePageQuery,
  type WifiSelection,
  type WifiRegionSeriesRequest,
  type WifiSessionPageQuery,
} from '@sc/contracts';
import { DateField, EnumField, INT_MAX, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';

/** One reboot may name this many devices; a larger set is addressed by region. */
export const WIFI_COMMAND_MAX_IDS = 10_000;

/** An access controller's record (an access point's adds its controller). */
export class AcAddOrEditDto implements AcAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The device to change; omit to add one' })
  id?: number;

  @TextField({ max: WIFI_NAME_MAX, emptyKey: 'nameEmpty', example: 'Lianhua Road AC' })
  devName!: string;

  @TextField({ max: 64, example: 'AC-0001', description: 'The serial number: the device code, also its MQTT topic level; unique within its kind' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  devSN!: string;

  @TextField({ max: 17, example: '58:2A:F7:10:00:01', description: 'Six pairs of hex digits with colons; unique within its kind' })
  @Matches(MAC_PATTERN, { message: msg('macInvalid') })
  devMac!: string;

  @TextField({ max: WIFI_LABEL_MAX, required: false, example: 'AC6508' })
  devModel?: string;

  @TextField({ max: WIFI_LABEL_MAX, required: false, example: 'Outdoor' })
  devType?: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'The lamp pole it is mounted on; null for none; omitted on edit keeps it' })
  poleId?: number | null;
}

export class ApAddOrEditDto extends AcAddOrEditDto implements ApAddOrEditRequest {
  @IntField({ min: 1, description: 'The access controller that manages it' })
  acId!: number;
}

/** The device lists' filters (the pages', and the exports'). */
export class WifiDeviceFiltersDto {
  @TextField({ max: WIFI_NAME_MAX, required: false, description: 'Part of the name, the serial number or the MAC address, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Devices of this region and of its sub-regions' })
  regionId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;
}

export class ApFiltersDto extends WifiDeviceFiltersDto {
  @IntField({ min: 1, required: false, description: 'Only the access points of this controller' })
  acId?: number;
}

export class AcPageDto extends IntersectionType(PageDto, WifiDeviceFiltersDto) implements WifiDevicePageQuery {}
export class ApPageDto extends IntersectionType(PageDto, ApFiltersDto) implements ApPageQuery {}

/** The devices a reboot is for: exactly one of ids or a region. */
export class WifiSelectionDto implements WifiSelection {
  @IdArrayField({ max: WIFI_COMMAND_MAX_IDS, description: 'The devices (device ids); or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every device of this region and of its sub-regions; or give ids' })
  regionId?: number;
}

/** The filters of both tabs of terminalManage. */
export class WifiClientFiltersDto implements WifiClientFilters {
  @TextField({ max: 45, required: false, description: "Part of the client's MAC or IP address, any case" })
  client?: string;

  @IntField({ min: 1, required: false })
  apId?: number;

  @IntField({ min: 1, required: false, description: 'Clients of the access points of this controller' })
  acId?: number;

  @TextField({ max: SSID_MAX, required: false, description: 'Exactly this SSID' })
  clientSsid?: string;

  @IntField({ min: 1, required: false, description: 'Clients of the access points of this region and of its sub-regions' })
  regionId?: number;
}

export class WifiClientPageDto extends IntersectionType(PageDto, WifiClientFiltersDto) implements WifiClientPageQuery {}

/** The history's window and filters (the page's, and the export's). */
export class WifiSessionFiltersDto extends WifiClientFiltersDto {
  @DateField({ emptyKey: 'timeEmpty', example: '2026-11-20T00:00:00+08:00', description: 'Sessions that ended from this time' })
  from!: string;

  @DateField({ emptyKey: 'timeEmpty', example: '2026-11-21T00:00:00+08:00', description: 'to this time (at most 31 days after from)' })
  to!: string;

  @IntField({ min: 0, required: false, description: 'Sessions at least this many seconds long' })
  minDuration?: number;
}

export class WifiSessionPageDto extends IntersectionType(PageDto, WifiSessionFiltersDto) implements WifiSessionPageQuery {}

/** One device's load over the last day. */
export class WifiLoadSeriesDto implements WifiLoadSeriesRequest {
  @EnumField(['ac', 'ap'], { description: 'ac: an access controller, ap: an access point' })
  kind!: 'ac' | 'ap';

  @IntField({ min: 1 })
  id!: number;
}

/** The access points whose clients are counted over the last day: all, a region and below, a controller's, or one. */
export class WifiClientSeriesDto implements WifiClientSeriesRequest {
  @IntField({ min: 1, required: false, description: 'The access points of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false, description: 'The access points of this controller' })
  acId?: number;

  @IntField({ min: 1, required: false })
  apId?: number;
}

/**
 * Region ids, in a JSON list or (in a query string) as `1,2,3`: each element in decimal digits becomes its number;
 * anything else is left for the validator to refuse.
 */
const IdList = Transform(({ value }) => {
  const list: unknown = typeof value === 'string' ? (value === '' ? [] : value.split(',')) : value;
  return Array.isArray(list) ? list.map((v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v)) : list;
});

/** The regions compared side by side: 1 to WIFI_REGION_SERIES_MAX ('Please select'; beyond, 'Compare at most 20 regions'). */
function RegionIdsField(): PropertyDecorator {
  return applyDecorators(
    IdList,
    IsArray({ message: msg('invalidValue') }),
    ArrayNotEmpty({ message: msg('pleaseSelect') }),
    ArrayMaxSize(WIFI_REGION_SERIES_MAX, { message: msg('wifiRegionSeriesTooMany', () => ({ max: WIFI_REGION_SERIES_MAX })) }),
    IsInt({ each: true, message: msg('invalidValue') }),
    Min(1, { each: true, message: msg('invalidValue') }),
    Max(INT_MAX, { each: true, message: msg('invalidValue') }),
    ApiProperty({
      type: [Number],
      description: `The regions (1 to ${WIFI_REGION_SERIES_MAX}), each a series of its access points and those of its sub-regions; in a query string as 1,2,3`,
    }),
  );
}

/** The clients of several regions over the last day, side by side (and its export). */
export class WifiRegionSeriesDto implements WifiRegionSeriesRequest {
  @RegionIdsField()
  regionIds!: number[];
}
