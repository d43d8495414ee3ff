import { IntersectionType } from '@nestjs/swagger';
import {
  MATERIAL_NAME_MAX,
  MATERIAL_STATUSES,
  MATERIAL_STORAGE_AREA_MAX,
  MATERIAL_TYPES,
  type MaterialPageQuery,
  type MaterialRenameRequest,
  type MaterialStatus,
  type MaterialStatusRequest,
  type MaterialStorageAreaRequest,
  type MaterialType,
} from '@sc/contracts';
import { EnumField, IntField, PageDto, TextField } from '../../common/fields';

class MaterialFilters {
  @TextField({ max: MATERIAL_NAME_MAX, required: false, description: 'Part of the name, any case' })
  name?: string;

  @EnumField(MATERIAL_TYPES, { required: false, description: 'image, video or music' })
  type?: MaterialType;

  @EnumField(MATERIAL_STATUSES, { required: false, description: 'available or unavailable' })
  status?: MaterialStatus;
}

export class MaterialPageDto extends IntersectionType(PageDto, MaterialFilters) implements MaterialPageQuery {}

export class MaterialRenameDto implements MaterialRenameRequest {
  @IntField({ min: 1 })
  id!: number;

  @TextField({ max: MATERIAL_NAME_MAX, example: 'Spring sale', emptyKey: 'nameEmpty' })
  name!: string;
}

export class MaterialStatusDto implements MaterialStatusRequest {
  @IntField({ min: 1 })
  id!: number;

  @EnumField(MATERIAL_STATUSES, { description: 'available or unavailable' })
  status!: MaterialStatus;
}

export class MaterialStorageAreaDto implements MaterialStorageAreaRequest {
  @IntField({ min: 1 })
  id!: number;

  @IntField({ min: 0, max: MATERIAL_STORAGE_AREA_MAX, required: false, description: 'The storage area number; null for none' })
  storageArea!: number | null;
}
