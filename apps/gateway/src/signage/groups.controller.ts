import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, SIGNAGE_FAMILY, type SignageGroupRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { SignageGroupAddOrEditDto } from './dto/group.dto';
import { SignageGroupsService } from './groups.service';

/**
 * Floor-screen groups (/floor-screen/device's group panel), gated as the players are: administrators and editors;
 * saving needs Add (a new group) or Edit, deleting needs Delete.
 */
@ApiTags('floor-screen groups')
@ApiBearerAuth()
@RequireRoles(...SIGNAGE_FAMILY.eventRoles)
@Controller('signage')
export class SignageGroupsController {
  constructor(private readonly groups: SignageGroupsService) {}

  /** Every group with its player counts (their players: devicePage with groupId). */
  @Get('groupList')
  list(): Promise<SignageGroupRow[]> {
    return this.groups.list();
  }

  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save floor-screen group')
  save(@CurrentCaller() caller: Caller, @Body() dto: SignageGroupAddOrEditDto): Promise<{ id: number }> {
    return this.groups.save(caller, dto);
  }

  /** Deletes an empty group. */
  @Get('groupDel')
  @RequireButton(Button.Delete)
  @Audit('Delete floor-screen group')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.groups.remove(q.id);
    return null;
  }
}
