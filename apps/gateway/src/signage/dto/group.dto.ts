import { SIGNAGE_GROUP_NAME_MAX, type SignageGroupAddOrEditRequest } from '@sc/contracts';
import { IntField, TextField } from '../../common/fields';

/** Adds a floor-screen group (no id) or renames one. */
export class SignageGroupAddOrEditDto implements SignageGroupAddOrEditRequest {
  @IntField({ min: 1, required: false, description: 'The group to rename; omit to add one' })
  id?: number;

  @TextField({ max: SIGNAGE_GROUP_NAME_MAX, emptyKey: 'enterGroupName', example: 'Metro line 2' })
  name!: string;
}
