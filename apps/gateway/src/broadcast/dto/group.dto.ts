import { IntersectionType } from '@nestjs/swagger';
import {
  BROADCAST_GROUP_NAME_MAX,
  BROADCAST_GROUP_REMARK_MAX,
  BROADCAST_GROUP_TERMINALS_MAX,
  type BroadcastGroupAddOrEditRequest,
  type BroadcastGroupPageQuery,
} from '@sc/contracts';
import { IdArrayField, IntField, PageDto, TextField } from '../../common/fields';

export class BroadcastGroupAddOrEditDto implements BroadcastGroupAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The group to change; omit to add one' })
  id?: number;

  @TextField({ max: BROADCAST_GROUP_NAME_MAX, emptyKey: 'enterGroupName', example: 'Lianhua squares', description: 'Unique, in any case' })
  groupName!: string;

  @IntField({ min: 1, required: false, description: 'null for no region; omitted on edit keeps the current one' })
  regionId?: number | null;

  @TextField({ max: BROADCAST_GROUP_REMARK_MAX, required: false, description: 'Omitted on edit keeps the current one' })
  remark?: string;

  @IdArrayField({
    max: BROADCAST_GROUP_TERMINALS_MAX,
    description: 'Every member (terminal device ids); omitted on edit keeps the members, [] empties the group',
  })
  terminalIds?: number[];
}

class BroadcastGroupFilters {
  @TextField({ max: BROADCAST_GROUP_NAME_MAX, required: false, description: 'Part of the group name, any case' })
  groupName?: string;

  @IntField({ min: 1, required: false, description: 'Groups of this region and of its sub-regions' })
  regionId?: number;
}

export class BroadcastGroupPageDto extends IntersectionType(PageDto, BroadcastGroupFilters) implements BroadcastGroupPageQuery {}
