import { LAMP_NAME_MAX, LampStatus, OnlineState, POLE_NAME_MAX, type LightExportQuery } from '@sc/contracts';
import { EnumField, IntField, TextField } from '../../common/fields';
import type { PoleFilters } from '../../poles/pole-filters';

const LAMP_STATUSES = Object.values(LampStatus).filter((v): v is LampStatus => typeof v === 'number');

/** The lamp list's filters (GET /api/light/lightExport). */
export class LightExportDto implements LightExportQuery {
  @TextField({ max: LAMP_NAME_MAX, required: false, description: 'Part of the lamp name, any case' })
  lampName?: string;

  @IntField({ min: 1, required: false, description: 'Lamps of this region and of its sub-regions' })
  regionId?: number;

  @EnumField(LAMP_STATUSES, { required: false })
  status?: LampStatus;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false })
  networkStatus?: OnlineState;

  @IntField({ min: 1, required: false })
  groupId?: number;

  @TextField({ max: 64, required: false, description: 'The code of the gateway the lamps hang off' })
  gatewayId?: string;
}

/** The gateway list's filters (GET /api/light/gatewayExport). */
export class GatewayExportDto {
  @TextField({ max: 64, required: false, description: 'Part of the name or code, any case' })
  name?: string;

  @IntField({ min: 1, required: false })
  regionId?: number;

  @EnumField([OnlineState.Offline, OnlineState.Online], { required: false })
  networkStatus?: OnlineState;
}

/** The loop list's filters (GET /api/light/loopExport). */
export class LoopExportDto {
  @TextField({ max: 64, required: false, description: 'The gateway code' })
  gatewayId?: string;

  @TextField({ max: 64, required: false, description: 'Part of the name or code, any case' })
  name?: string;
}

/** The pole list's filters (GET /api/lamp/lampExport). */
export class PoleExportDto implements PoleFilters {
  @TextField({ max: POLE_NAME_MAX, required: false, description: 'Part of the name or code, any case' })
  name?: string;

  @IntField({ min: 1, required: false })
  regionId?: number;

  @IntField({ min: 1, required: false })
  groupId?: number;
}

export class ReportQueryDto {
  @TextField({ max: 36 })
  id!: string;
}
