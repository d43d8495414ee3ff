import { REGION_NAME_MAX, REGION_REMARK_MAX, type RegionRequest } from '@sc/contracts';
import { IntField, TextField } from '../../common/fields';

export class CreateRegionDto implements RegionRequest {
  @TextField({ max: REGION_NAME_MAX, emptyKey: 'nameEmpty', example: 'Futian District' })
  regionName!: string;

  @IntField({ min: 1, required: false, description: 'Parent region id; omit for a top-level region' })
  parentRegion?: number | null;

  @TextField({ max: REGION_REMARK_MAX, required: false })
  remark?: string;

  @TextField({ max: REGION_NAME_MAX, required: false, example: '福田区' })
  zhCn?: string;

  @TextField({ max: REGION_NAME_MAX, required: false, example: 'Futian District' })
  enUs?: string;
}

export class UpdateRegionDto extends CreateRegionDto {
  @IntField({ min: 1 })
  id!: number;
}

export class AreaTreeQueryDto {
  @TextField({ max: REGION_NAME_MAX, required: false, description: 'Keeps regions whose name (in any language) contains this, with their ancestors' })
  name?: string;
}
