import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray } from 'class-validator';
import {
  ALARM_ACTION_MAX_IDS,
  ALARM_KINDS,
  ALARM_STATES,
  FAMILIES,
  FaultCode,
  type DeviceAlarmPageQuery,
  type FamilyName,
  LAMP_NAME_MAX,
  type AlarmActionRequest,
  type AlarmKind,
  type AlarmPageQuery,
  type AlarmState,
} from '@sc/contracts';
import { BoolField, DateField, EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

const FAULT_CODES = Object.values(FaultCode).filter((v): v is FaultCode => typeof v === 'number');

class AlarmFilters {
  @IntField({ min: 1, required: false, description: 'Alarms of devices in this region and its sub-regions' })
  regionId?: number;

  @EnumField(ALARM_KINDS, { required: false })
  kind?: AlarmKind;

  @EnumField(FAULT_CODES, { required: false, description: 'A fault code of spec section 3 (kind fault)' })
  code?: FaultCode;

  @EnumField(ALARM_STATES, { required: false })
  state?: AlarmState;

  @BoolField({ required: false, description: 'Only active and acknowledged alarms (the live list)' })
  open?: boolean;

  @IntField({ min: 1, required: false, description: "One device's alarms: its history" })
  deviceId?: number;

  @TextField({ max: LAMP_NAME_MAX, required: false, description: 'Part of the device name or code, any case' })
  keyword?: string;

  @DateField({ required: false, description: 'Raised at or after this time' })
  raisedFrom?: string;

  @DateField({ required: false, description: 'Raised before this time' })
  raisedTo?: string;
}

export class AlarmPageDto extends IntersectionType(PageDto, AlarmFilters) implements AlarmPageQuery {}

export class AlarmActionDto implements AlarmActionRequest {
  @IsArray({ message: msg('selectListItem') })
  @ArrayNotEmpty({ message: msg('selectListItem') })
  @ArrayMaxSize(ALARM_ACTION_MAX_IDS, { message: msg('outOfRange', () => ({ min: 1, max: ALARM_ACTION_MAX_IDS })) })
  @EachId()
  @ApiProperty({ type: [Number], description: `The alarms, 1 to ${ALARM_ACTION_MAX_IDS}` })
  ids!: number[];
}

/** Every declared family's name: the families an alarm may be of. */
const FAMILY_NAMES = FAMILIES.map((f) => f.family);

/** The device alarms page (POST /api/alarms/page): one family, or every family the caller may see. */
export class DeviceAlarmPageDto extends AlarmPageDto implements DeviceAlarmPageQuery {
  @EnumField(FAMILY_NAMES, { required: false, description: "One family's alarms; every family the caller's roles see when omitted" })
  family?: FamilyName;
}

export class DeviceAlarmFamilyDto {
  @EnumField(FAMILY_NAMES, { required: false, description: "One family's alarms; every family the caller's roles see when omitted" })
  family?: FamilyName;
}
