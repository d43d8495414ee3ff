import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { Matches, ValidateIf } from 'class-validator';
import {
  CAMERA_BOUNDS,
  CAMERA_HOST_PATTERN,
  CAMERA_NAME_MAX,
  CAMERA_PASSWORD_MAX,
  CAMERA_USERNAME_MAX,
  DEVICE_CODE_PATTERN,
  OnlineState,
  RTSP_URL_MAX,
  RTSP_URL_PATTERN,
  VIDEO_CATEGORY_LIST,
  VIDEO_VENDORS,
  type CameraAddOrEditRequest,
  type CameraFilters,
  type CameraPageQuery,
  type VideoVendor,
} from '@sc/contracts';
import { EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';
import { PositionedPlacementDto } from '../../common/placement.dto';

const CATEGORY_CODES = VIDEO_CATEGORY_LIST.map((c) => c.code);
const SUB_TYPE_CODES = [...new Set(VIDEO_CATEGORY_LIST.flatMap((c) => c.types.map((t) => t.code)))];

export class CameraAddOrEditDto extends PositionedPlacementDto implements CameraAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The equipment to change; omit to add one' })
  id?: number;

  @TextField({ max: CAMERA_NAME_MAX, emptyKey: 'nameEmpty', example: 'Lianhua Road crossing camera' })
  name!: string;

  @TextField({ max: 64, example: 'CAM-0001', description: 'The serial number: the device code, unique among video equipment' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  code!: string;

  @EnumField(VIDEO_VENDORS, { emptyKey: 'pleaseSelect', description: '1 Dahua, 2 Haikang, 3 other' })
  vendor!: VideoVendor;

  @EnumField(CATEGORY_CODES, { emptyKey: 'pleaseSelect', description: 'Spec video device category: 1, 5, 34, 45 or 53' })
  category!: number;

  @EnumField(SUB_TYPE_CODES, { required: false, description: 'A sub-type of the category; null for a category without (53 IP speaker)' })
  @ApiProperty({ required: false, nullable: true })
  subType!: number | null;

  @TextField({ max: 255, required: false, example: '10.20.1.15', description: 'Its network address; may stay empty when rtspUrl is given' })
  @ValidateIf((o: CameraAddOrEditDto) => typeof o.ip === 'string' && o.ip !== '')
  @Matches(CAMERA_HOST_PATTERN, { message: msg('cameraHostInvalid') })
  ip?: string;

  @IntField({ ...CAMERA_BOUNDS.rtspPort, required: false, description: 'RTSP port (554 unless given)' })
  rtspPort?: number;

  @IntField({ ...CAMERA_BOUNDS.channel, required: false, description: 'Channel of a recorder or multi-sensor camera (1 unless given)' })
  channel?: number;

  @TextField({
    max: RTSP_URL_MAX,
    required: false,
    example: 'rtsp://10.20.1.15:554/live/main',
    description: "Its own RTSP address, without the login; empty takes the vendor's usual one",
  })
  @ValidateIf((o: CameraAddOrEditDto) => typeof o.rtspUrl === 'string' && o.rtspUrl !== '')
  @Matches(RTSP_URL_PATTERN, { message: msg('rtspUrlInvalid') })
  rtspUrl?: string;

  @TextField({ max: CAMERA_USERNAME_MAX, required: false, description: "The RTSP login's user name" })
  username?: string;

  @TextField({
    max: CAMERA_PASSWORD_MAX,
    required: false,
    trim: false,
    description: 'The RTSP password: a value sets it, an empty string removes it, absent keeps it. Never answered.',
  })
  password?: string;
}

/** The list's filters (the page's, and GET /api/video/equipmentExport's). */
export class CameraFiltersDto implements CameraFilters {
  @TextField({ max: CAMERA_NAME_MAX, required: false, description: 'Part of the name, the code or the address, any case' })
  name?: string;

  @IntField({ min: 1, required: false, description: 'Equipment of this region and of its sub-regions' })
  regionId?: number;

  @IntField({ min: 1, required: false, description: 'Equipment mounted on this pole' })
  poleId?: number;

  @EnumField(VIDEO_VENDORS, { required: false, description: '1 Dahua, 2 Haikang, 3 other' })
  vendor?: VideoVendor;

  @EnumField(CATEGORY_CODES, { required: false, description: 'Spec video device category' })
  category?: number;

  @EnumField(SUB_TYPE_CODES, { required: false, description: 'A sub-type (with its category)' })
  subType?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false, description: '0 offline, 1 online' })
  networkStatus?: OnlineState;
}

export class CameraPageDto extends IntersectionType(PageDto, CameraFiltersDto) implements CameraPageQuery {}
