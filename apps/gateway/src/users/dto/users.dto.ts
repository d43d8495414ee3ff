import { IntersectionType } from '@nestjs/swagger';
import {
  GRANTABLE_PERMISSIONS,
  GROUP_NAME_MAX,
  PASSWORD_MAX,
  USERNAME_MAX,
  type CreateUserRequest,
  type GroupAddOrEditRequest,
  type GroupPageQuery,
  type UpdateUserRequest,
  type UserPageQuery,
} from '@sc/contracts';
import { BoolField, DateField, EnumField, IntField, PageDto, StringListField, TextField } from '../../common/fields';

export class CreateUserDto implements CreateUserRequest {
  @TextField({ max: USERNAME_MAX, example: 'operator01' })
  username!: string;

  @TextField({ max: PASSWORD_MAX, trim: false, example: 'Operator2026' })
  password!: string;

  @IntField({ min: 1, emptyKey: 'selectGroup' })
  groupId!: number;

  @BoolField({ required: false })
  enabled?: boolean;

  @TextField({ max: 255, required: false })
  introduction?: string;
}

export class UpdateUserDto implements UpdateUserRequest {
  @IntField({ min: 1 })
  id!: number;

  @IntField({ min: 1, required: false })
  groupId?: number;

  @BoolField({ required: false })
  enabled?: boolean;

  @TextField({ max: PASSWORD_MAX, trim: false, required: false, description: 'Resets the password and ends every session of the user' })
  password?: string;

  @TextField({ max: 255, required: false })
  introduction?: string;
}

class UserFilters {
  @TextField({ max: USERNAME_MAX, required: false, description: 'Part of the user name, any case' })
  username?: string;

  @IntField({ min: 1, required: false })
  groupId?: number;

  @BoolField({ required: false })
  enabled?: boolean;

  @DateField({ required: false })
  lastLoginFrom?: string;

  @DateField({ required: false })
  lastLoginTo?: string;
}

export class UserPageDto extends IntersectionType(PageDto, UserFilters) implements UserPageQuery {}

class GroupFilters {
  @TextField({ max: GROUP_NAME_MAX, required: false })
  groupName?: string;
}

export class GroupPageDto extends IntersectionType(PageDto, GroupFilters) implements GroupPageQuery {}

export class GroupAddOrEditDto implements GroupAddOrEditRequest {
  @IntField({ min: 1, required: false })
  id?: number;

  @TextField({ max: GROUP_NAME_MAX, emptyKey: 'enterGroupName', example: 'Night shift' })
  groupName!: string;

  @EnumField([0, 1] as const, { description: '1 = administrators, 0 = general role' })
  isAdmin!: 0 | 1;

  @StringListField(GRANTABLE_PERMISSIONS, { maxItems: GRANTABLE_PERMISSIONS.length })
  permissionMenu!: string[];

  @TextField({ max: 255, required: false })
  remark?: string;
}
