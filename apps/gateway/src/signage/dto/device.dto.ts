import { IntersectionType } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import {
  DEVICE_CODE_PATTERN,
  NUMBER_BOUNDS,
  OnlineState,
  SCREEN_ORIENTATIONS,
  SIGNAGE_ADDRESS_MAX,
  SIGNAGE_CMARK_MAX,
  SIGNAGE_NAME_MAX,
  SIGNAGE_SERIAL_MAX,
  type ScreenOrientation,
  type SignageBindRequest,
  type SignageMoveRequest,
  type SignageDeviceAddOrEditRequest,
  type SignageDevicePageQuery,
  type SignageVolumeRequest,
} from '@sc/contracts';
import { Coordinate, EnumField, IdArrayField, IntField, PageDto, TextField, msg } from '../../common/fields';

/** One command or one bind may name this many players; a larger set is addressed by group or region. */
export const SIGNAGE_COMMAND_MAX_IDS = 10_000;
/** One command may name this many groups. */
export const SIGNAGE_COMMAND_MAX_GROUPS = 100;

export class SignageDeviceAddOrEditDto implements SignageDeviceAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The player to change; omit to add one' })
  id?: number;

  @TextField({ max: SIGNAGE_NAME_MAX, emptyKey: 'nameEmpty', example: 'Metro hall screen 1' })
  name!: string;

  @TextField({ max: 64, example: 'FS-0001', description: 'The device code, also its MQTT identity: unique among floor screens' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  code!: string;

  @TextField({ max: SIGNAGE_CMARK_MAX, required: false, description: 'The cMark identifier; needed to bind the player to a group' })
  cMark?: string;

  @TextField({ max: SIGNAGE_ADDRESS_MAX, required: false, description: 'Needed to bind the player to a group' })
  address?: string;

  @Coordinate(NUMBER_BOUNDS.latitude)
  latitude?: number | null;

  @Coordinate(NUMBER_BOUNDS.longitude)
  longitude?: number | null;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @TextField({ max: SIGNAGE_SERIAL_MAX, required: false, description: 'Until the player reports its own' })
  serialNumber?: string;

  @EnumField(SCREEN_ORIENTATIONS, { required: false, description: "How it is mounted, until it reports: '9:16' or '16:9'" })
  orientation?: ScreenOrientation;
}

export class SignageDeviceFiltersDto {
  @TextField({ max: SIGNAGE_NAME_MAX, required: false, description: 'Part of the name or code, any case' })
  name?: string;

  @IntField({ min: 0, required: false, description: 'Players of this group; 0 for players bound to none' })
  groupId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;
}

export class SignageDevicePageDto extends IntersectionType(PageDto, SignageDeviceFiltersDto) implements SignageDevicePageQuery {}

/** The players a command is for: exactly one of ids, a region or groups. */
export class SignageSelectionDto {
  @IdArrayField({ max: SIGNAGE_COMMAND_MAX_IDS, description: 'The players; or give regionId or groupIds' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every player of this region and of its sub-regions; or give ids or groupIds' })
  regionId?: number;

  @IdArrayField({ max: SIGNAGE_COMMAND_MAX_GROUPS, description: 'Every player of these groups (none may be empty); or give ids or regionId' })
  groupIds?: number[];
}

export class SignageVolumeDto extends SignageSelectionDto implements Partial<SignageVolumeRequest> {
  @IntField({ ...NUMBER_BOUNDS.volume, emptyKey: 'volumeEmpty', description: 'Percent' })
  volume!: number;
}

/** Binds players bound to no group to one ('device binding needs complete information'). */
export class SignageBindDto implements SignageBindRequest {
  @IdArrayField({ max: SIGNAGE_COMMAND_MAX_IDS, description: 'The players to bind' })
  ids!: number[];

  @IntField({ min: 1, emptyKey: 'selectGroup', description: 'The group' })
  groupId!: number;
}

/** Moves players to another group ('A target group is required to move a device'). */
export class SignageMoveDto implements SignageMoveRequest {
  @IdArrayField({ max: SIGNAGE_COMMAND_MAX_IDS, description: 'The players to move' })
  ids!: number[];

  @IntField({ min: 1, emptyKey: 'targetGroupRequired', description: 'The target group' })
  groupId!: number;
}

/** GET /api/signage/screenshot: the player whose latest screenshot is wanted. */
export class SignageScreenshotQueryDto {
  @IntField({ min: 1 })
  deviceId!: number;
}
