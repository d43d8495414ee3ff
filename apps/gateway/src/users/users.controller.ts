import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { GRANTABLE_PERMISSIONS, Role, buttonsOf, type GroupRow, type PageResult, type PermissionMenuItem, type UserRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireRoles } from '../common/decorators';
import type { Caller } from '../common/request-context';
import { IdQueryDto } from '../common/fields';
import { CreateUserDto, GroupAddOrEditDto, GroupPageDto, UpdateUserDto, UserPageDto } from './dto/users.dto';
import { UsersService } from './users.service';

/** User and group management (spec section 7): administrators only. */
@ApiTags('users')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('createUser')
  @HttpCode(200)
  @Audit('Create user')
  create(@Body() dto: CreateUserDto): Promise<{ id: number }> {
    return this.users.create(dto);
  }

  @Post('userPage')
  @HttpCode(200)
  page(@Body() dto: UserPageDto): Promise<PageResult<UserRow>> {
    return this.users.page(dto);
  }

  @Post('updateUser')
  @HttpCode(200)
  @Audit('Update user')
  async update(@CurrentCaller() caller: Caller, @Body() dto: UpdateUserDto): Promise<null> {
    await this.users.update(caller, dto);
    return null;
  }

  @Post('groupPage')
  @HttpCode(200)
  groupPage(@Body() dto: GroupPageDto): Promise<PageResult<GroupRow>> {
    return this.users.groupPage(dto);
  }

  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save permission group')
  saveGroup(@Body() dto: GroupAddOrEditDto): Promise<{ id: number }> {
    return this.users.saveGroup(dto);
  }

  @Get('groupDel')
  @Audit('Delete permission group')
  async deleteGroup(@Query() q: IdQueryDto): Promise<null> {
    await this.users.deleteGroup(q.id);
    return null;
  }

  /** The permission names a general group may grant, with the buttons each brings. */
  @Get('permissionMenu')
  permissionMenu(): PermissionMenuItem[] {
    return GRANTABLE_PERMISSIONS.map((name) => ({ name, buttons: buttonsOf([name]) }));
  }
}
