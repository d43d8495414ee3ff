import { IntersectionType } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import {
  CALL_CODE_PATTERN,
  DEVICE_CODE_PATTERN,
  IPV4_PATTERN,
  NUMBER_BOUNDS,
  RELAY_SERVER_MAX,
  TERMINAL_NAME_MAX,
  TERMINAL_PLAYBACK_ACTIONS,
  TERMINAL_TYPE_MAX,
  TerminalStatus,
  type TerminalAddOrEditRequest,
  type TerminalPageQuery,
  type TerminalPlaybackAction,
  type TerminalPlaybackRequest,
  type TerminalSelection,
  type TerminalVolumeRequest,
} from '@sc/contracts';
import type { TerminalFilters } from '../terminal-filters';
import { BoolField, DateField, EnumField, IdArrayField, IdQueryDto, IntField, PageDto, TextField, msg } from '../../common/fields';

/** One command may name this many terminals; a larger set is addressed by region. */
export const TERMINAL_COMMAND_MAX_IDS = 10_000;

const { volume, terminalPriority } = NUMBER_BOUNDS;

export class TerminalAddOrEditDto implements TerminalAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The terminal to change; omit to add one' })
  id?: number;

  @TextField({ max: TERMINAL_NAME_MAX, example: 'Lianhua terminal 1' })
  terminalName!: string;

  @TextField({ max: 64, example: 'BC-0001', description: 'The device code, also its MQTT topic level: unique among terminals' })
  @Matches(DEVICE_CODE_PATTERN, { message: msg('clientIdInvalid') })
  terminalId!: string;

  @TextField({ max: 15, example: '10.20.1.11' })
  @Matches(IPV4_PATTERN, { message: msg('terminalIpInvalid') })
  terminalIP!: string;

  @TextField({ max: 16, required: false, example: '8001', description: 'The number an intercom call dials; empty for none' })
  @Matches(CALL_CODE_PATTERN, { message: msg('callCodeInvalid') })
  callCode?: string;

  @BoolField({ required: false, description: "The spec's default: making one terminal the default takes it from the one before" })
  isDefault?: boolean;

  @IntField({ ...volume, required: false, description: 'Percent; 50 for a new terminal' })
  interphoneVolume?: number;

  @IntField({ ...volume, required: false, description: 'Percent; 50 for a new terminal' })
  broadcastVolume?: number;

  @IntField({ ...terminalPriority, required: false, description: '1 (first) to 10; 5 for a new terminal' })
  priority?: number;

  @TextField({ max: RELAY_SERVER_MAX, required: false, example: 'relay-1.city.local' })
  relayServer?: string;

  @TextField({ max: TERMINAL_TYPE_MAX, required: false, example: 'IP column speaker' })
  terminalType?: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @IntField({ min: 1, required: false, description: 'The lamp pole it is mounted on; null for none; omitted on edit keeps it' })
  poleId?: number | null;
}

/** The terminal list's filters (the page's, and GET /api/broadcast/terminalExport's). */
export class TerminalFiltersDto implements TerminalFilters {
  @TextField({ max: TERMINAL_NAME_MAX, required: false, description: 'Part of the terminal name or ID, any case' })
  terminalName?: string;

  @IntField({ min: 1, required: false, description: 'Terminals of this region and of its sub-regions' })
  regionId?: number;

  @EnumField(Object.values(TerminalStatus), { required: false, description: 'online, offline or occupy' })
  status?: TerminalStatus;
}

export class TerminalPageDto extends IntersectionType(PageDto, TerminalFiltersDto) implements TerminalPageQuery {}

/** One command may name this many groups. */
export const TERMINAL_COMMAND_MAX_GROUPS = 100;

/** The terminals a command or a task is for: exactly one of ids, a region or groups. */
export class TerminalSelectionDto implements TerminalSelection {
  @IdArrayField({ max: TERMINAL_COMMAND_MAX_IDS, description: 'The terminals (device ids); or give regionId or groupIds' })
  ids?: number[];

  @IntField({ min: 1, required: false, description: 'Every terminal of this region and of its sub-regions; or give ids or groupIds' })
  regionId?: number;

  @IdArrayField({
    max: TERMINAL_COMMAND_MAX_GROUPS,
    description: 'Every terminal of these broadcast groups (none may be empty); or give ids or regionId',
  })
  groupIds?: number[];
}

/** One or both volumes; neither is refused with 'The volume cannot be empty' (checked by the service). */
export class TerminalVolumeDto extends TerminalSelectionDto implements TerminalVolumeRequest {
  @IntField({ ...volume, required: false })
  broadcastVolume?: number;

  @IntField({ ...volume, required: false })
  interphoneVolume?: number;
}

export class TerminalPlaybackDto extends TerminalSelectionDto implements TerminalPlaybackRequest {
  @EnumField(TERMINAL_PLAYBACK_ACTIONS, { description: 'pause, cancelPause (resume) or stop' })
  action!: TerminalPlaybackAction;
}

/** GET /api/broadcast/terminalHistory: a terminal and a day ('yyyy-MM-dd' of its clock; today without one). */
export class TerminalHistoryDto extends IdQueryDto {
  @DateField({ required: false, description: "'yyyy-MM-dd' of the terminal's clock; today without one" })
  date?: string;
}
