import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  BROADCAST_FAMILY,
  Button,
  type BroadcastGroupDetail,
  type BroadcastGroupOption,
  type BroadcastGroupRow,
  type PageResult,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { BroadcastGroupAddOrEditDto, BroadcastGroupPageDto } from './dto/group.dto';
import { BroadcastGroupsService } from './groups.service';

/**
 * Broadcast groups (/broadcastManage/groupManagement and its hidden create and edit pages), gated as the terminals
 * are: administrators, editors and visitors open them; saving needs Add (a new group) or Edit, deleting needs Delete.
 */
@ApiTags('broadcast groups')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class BroadcastGroupsController {
  constructor(private readonly groups: BroadcastGroupsService) {}

  /** Groups by part of their name and by region (and the regions below it), with their member counts. */
  @Post('groupPage')
  @HttpCode(200)
  page(@Body() dto: BroadcastGroupPageDto): Promise<PageResult<BroadcastGroupRow>> {
    return this.groups.page(dto);
  }

  /** One group with its terminals and their status. */
  @Get('groupDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<BroadcastGroupDetail> {
    return this.groups.detail(q.id);
  }

  /** Every group for pickers, empty ones marked (they cannot be chosen). */
  @Get('groupOptions')
  options(): Promise<BroadcastGroupOption[]> {
    return this.groups.options();
  }

  /** Adds a group (no id; Add button) or changes one (Edit): name, region, remark and, when given, every member. */
  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save broadcast group')
  save(@CurrentCaller() caller: Caller, @Body() dto: BroadcastGroupAddOrEditDto): Promise<{ id: number }> {
    return this.groups.save(caller, dto);
  }

  @Get('groupDel')
  @RequireButton(Button.Delete)
  @Audit('Delete broadcast group')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.groups.remove(q.id);
    return null;
  }
}
