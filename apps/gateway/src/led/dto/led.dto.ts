import { IntersectionType } from '@nestjs/swagger';
import { Matches, ValidateBy } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  IPV4_PATTERN,
  LED_BOUNDS,
  LED_NAME_MAX,
  OnlineState,
  ScreenState,
  type LedAddOrEditRequest,
  type LedBrightnessRequest,
  type LedDaylightRequest,
  type LedPageQuery,
  type LedScreenRequest,
  type LedSelection,
  type LedVolumeRequest,
} from '@sc/contracts';
import { isTimeZone } from '@sc/schedule';
import { BoolField, EnumField, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';
import type { LedFilters } from '../led-filters';

/** One command may name this many screens; a larger set is addressed by region. */
export const LED_COMMAND_MAX_IDS = 10_000;

const { brightness, volume, pixels } = LED_BOUNDS;

export class LedAddOrEditDto implements LedAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The screen to change; omit to add one' })
  id?: number;

  @TextField({ max: LED_NAME_MAX, example: 'Lianhua Road screen 1' })
  name!: string;

  @TextField({ max: 64, example: 'LED-0001', description: 'The serial number: the device code, also its MQTT topic level; unique among screens' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  sn!: string;

  @TextField({ max: 15, example: '10.30.1.21' })
  @Matches(IPV4_PATTERN, { message: msg('ipAddressInvalid') })
  IPAddress!: string;

  @IntField({ ...pixels, example: 1920, description: 'Pixels' })
  width!: number;

  @IntField({ ...pixels, example: 1080, description: 'Pixels' })
  height!: number;

  @TextField({ max: 64, required: false, example: 'Asia/Shanghai', description: "An IANA time zone; omitted: its region's, else the installation's" })
  @ValidateBy({ name: 'timeZone', validator: { validate: (v) => typeof v === 'string' && isTimeZone(v) } }, { message: msg('timeZoneInvalid') })
  timeZone?: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'The lamp pole it is mounted on; null for none; omitted on edit keeps it' })
  poleId?: number | null;
}

/** The screen list's filters (the page's, and GET /api/led/ledExport's). */
export class LedFiltersDto implements LedFilters {
  @TextField({ max: LED_NAME_MAX, required: false, description: 'Part of the name or the serial number, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Screens of this region and of its sub-regions' })
  regionId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;
}

export class LedPageDto extends IntersectionType(PageDto, LedFiltersDto) implements LedPageQuery {}

/** The screens a command is for: exactly one of ids or a region. */
export class LedSelectionDto implements LedSelection {
  @IdArrayField({ max: LED_COMMAND_MAX_IDS, description: 'The screens (device ids); or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every screen of this region and of its sub-regions; or give ids' })
  regionId?: number;
}

export class LedBrightnessDto extends LedSelectionDto implements LedBrightnessRequest {
  @IntField({ ...brightness, emptyKey: 'brightnessEmpty', description: 'Percent' })
  brightness!: number;
}

export class LedVolumeDto extends LedSelectionDto implements LedVolumeRequest {
  @IntField({ ...volume, emptyKey: 'volumeEmpty', description: 'Percent' })
  volume!: number;
}

export class LedScreenDto extends LedSelectionDto implements LedScreenRequest {
  @EnumField([ScreenState.Bright, ScreenState.Black], { description: '1 bright, 2 black' })
  screen!: ScreenState;
}

/** The daylight rule: both brightnesses when enabled (an empty one is refused with 'Brightness cannot be empty'). */
export class LedDaylightDto extends LedSelectionDto implements LedDaylightRequest {
  @BoolField({ description: 'false takes the rule off the screens' })
  enabled!: boolean;

  @IntField({ ...brightness, required: false, description: 'Percent, from sunrise' })
  dayBrightness?: number;

  @IntField({ ...brightness, required: false, description: 'Percent, from sunset' })
  nightBrightness?: number;
}
