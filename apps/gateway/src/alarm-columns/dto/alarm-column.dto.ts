import { IntersectionType } from '@nestjs/swagger';
import { Matches, ValidateIf } from 'class-validator';
import {
  ALARM_ANNOUNCE_ITEMS_MAX,
  ALARM_ANNOUNCE_TEXT_MAX,
  ALARM_COLUMN_BOUNDS,
  BroadcastContentType,
  PlaybackMode,
  type AlarmAnnounceRequest,
  ALARM_COLUMN_NAME_MAX,
  DEVICE_CODE_PATTERN,
  OnlineState,
  SIP_ACCOUNT_MAX,
  SIP_ACCOUNT_PATTERN,
  type AlarmColumnAddOrEditRequest,
  type AlarmColumnFilters,
  type AlarmColumnPageQuery,
  type AlarmColumnSelection,
  type AlarmColumnVolumeRequest,
} from '@sc/contracts';
import { EnumField, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';
import { PositionedPlacementDto } from '../../common/placement.dto';

/** One command may name this many columns; a larger set is addressed by region. */
export const ALARM_COMMAND_MAX_IDS = 10_000;

export class AlarmColumnAddOrEditDto extends PositionedPlacementDto implements AlarmColumnAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The column to change; omit to add one' })
  id?: number;

  @TextField({ max: ALARM_COLUMN_NAME_MAX, emptyKey: 'nameEmpty', example: 'Lianhua Road alarm column 1' })
  name!: string;

  @TextField({ max: 64, example: 'ALARM-0001', description: 'The serial number: the device code, also its MQTT topic level; unique among columns' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  code!: string;

  @TextField({ max: SIP_ACCOUNT_MAX, required: false, example: '8001', description: 'Its SIP account for the intercom; empty for none yet' })
  @ValidateIf((o: AlarmColumnAddOrEditDto) => typeof o.sipAccount === 'string' && o.sipAccount !== '')
  @Matches(SIP_ACCOUNT_PATTERN, { message: msg('sipAccountInvalid') })
  sipAccount?: string;
}

/** The list's filters (the page's, and GET /api/alarm/columnExport's). */
export class AlarmColumnFiltersDto implements AlarmColumnFilters {
  @TextField({ max: ALARM_COLUMN_NAME_MAX, required: false, description: 'Part of the name, the code or the SIP account, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Columns of this region and of its sub-regions' })
  regionId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;
}

export class AlarmColumnPageDto extends IntersectionType(PageDto, AlarmColumnFiltersDto) implements AlarmColumnPageQuery {}

/** The columns a command is for: exactly one of ids or a region. */
export class AlarmColumnSelectionDto implements AlarmColumnSelection {
  @IdArrayField({ max: ALARM_COMMAND_MAX_IDS, description: 'The columns (device ids); or give regionId' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every column of this region and of its sub-regions; or give ids' })
  regionId?: number;
}

export class AlarmColumnVolumeDto extends AlarmColumnSelectionDto implements AlarmColumnVolumeRequest {
  @IntField({ ...ALARM_COLUMN_BOUNDS.volume, emptyKey: 'volumeEmpty', description: 'Percent' })
  volume!: number;
}

/** POST /api/alarm/columnAnnounce: an announcement on the selected columns' speakers (audioInquiry). */
export class AlarmAnnounceDto extends AlarmColumnSelectionDto implements AlarmAnnounceRequest {
  @EnumField([BroadcastContentType.Audio, BroadcastContentType.Text], { description: '1 audio (mediaIds), 2 text (text)' })
  contentType!: BroadcastContentType;

  @IdArrayField({ max: ALARM_ANNOUNCE_ITEMS_MAX, description: 'Audio: approved media of the broadcast library, in the order they play' })
  mediaIds?: number[];

  @TextField({ max: ALARM_ANNOUNCE_TEXT_MAX, required: false, description: 'Text: what the columns say' })
  text?: string;

  @EnumField([PlaybackMode.Normal, PlaybackMode.ListCycle, PlaybackMode.Random], { description: 'normal_mode, list_cycle_mode, random_mode' })
  playbackMode!: PlaybackMode;
}
