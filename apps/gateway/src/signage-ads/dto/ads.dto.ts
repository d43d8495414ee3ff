import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, IsArray } from 'class-validator';
import {
  AD_AUDIT_STATUSES,
  AD_DELETE_MAX,
  AD_NAME_MAX,
  type AdAuditRequest,
  type AdAuditStatus,
  type AdDeleteRequest,
  type AdEditRequest,
  type AdPageQuery,
  type AdRequest,
  type AdZoneItem,
  ScreenOrientation,
} from '@sc/contracts';
import { EachId, EnumField, IntField, PageDto, TextField, msg } from '../../common/fields';

const ORIENTATIONS = Object.values(ScreenOrientation);

class AdFilters {
  @TextField({ max: AD_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;

  @EnumField(ORIENTATIONS, { required: false, description: '9:16 portrait or 16:9 landscape' })
  orientation?: ScreenOrientation;

  @EnumField(AD_AUDIT_STATUSES, { required: false, description: 'audited or not_audited' })
  auditStatus?: AdAuditStatus;
}

export class AdPageDto extends IntersectionType(PageDto, AdFilters) implements AdPageQuery {}

/**
 * An ad as the editor sends it. Its fields are only let through here: adProblems (libs/contracts/src/signage-ads.ts),
 * the rules the editor checks with too, judges them all, then the service checks the materials they name.
 */
export class AdAddDto implements AdRequest {
  @Allow()
  @ApiProperty({ example: 'Spring sale', maxLength: AD_NAME_MAX })
  name!: string;

  @Allow()
  @ApiProperty({ type: Number, description: 'An image material' })
  coverMaterialId!: number | null;

  @Allow()
  @ApiProperty({ enum: ORIENTATIONS })
  orientation!: ScreenOrientation;

  @Allow()
  @ApiProperty({ minimum: 5, maximum: 600, description: 'Seconds' })
  totalDuration!: number;

  @Allow()
  @ApiProperty({ minimum: 1, maximum: 9 })
  splitCount!: number;

  @Allow()
  @ApiProperty({ description: 'One list per zone, in reading order: [{ materialId, seconds }]', type: 'array', items: { type: 'array' } })
  zones!: AdZoneItem[][];

  @Allow()
  @ApiPropertyOptional({ type: [Number], description: 'Music materials, played in order' })
  music!: number[];

  @Allow()
  @ApiPropertyOptional({ type: Boolean })
  auditRequired!: boolean;
}

export class AdEditDto extends AdAddDto implements AdEditRequest {
  @IntField({ min: 1 })
  id!: number;
}

export class AdDeleteDto implements AdDeleteRequest {
  @Allow()
  @IsArray({ message: msg('adBatchDeleteEmpty') })
  @ArrayMaxSize(AD_DELETE_MAX, { message: msg('invalidValue') })
  @EachId()
  @ApiProperty({ type: [Number], description: `1 to ${AD_DELETE_MAX} ads` })
  ids!: number[];
}

export class AdAuditDto implements AdAuditRequest {
  @IntField({ min: 1 })
  id!: number;

  @EnumField(AD_AUDIT_STATUSES, { description: 'audited or not_audited' })
  auditStatus!: AdAuditStatus;
}
