import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  Role,
  type DeviceGroupMoveResult,
  type DeviceGroupRow,
  type GatewayOption,
  type GatewayRow,
  type LoopOption,
  type LoopRow,
  type PageResult,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { DeviceGroupsService } from './device-groups.service';
import {
  GatewayAddOrEditDto,
  GatewayPageDto,
  DeviceGroupAddOrEditDto,
  GroupDelDto,
  GroupListDto,
  GroupMoveDto,
  LoopAddOrEditDto,
  LoopListDto,
  LoopPageDto,
} from './dto/equipment.dto';
import { GatewaysService } from './gateways.service';

/**
 * The equipment lamps hang off and are sorted into: gateways (concentrators), their loops, and device groups. Admin
 * only like every smart-lamp page (spec section 6), and each change needs its button.
 */
@ApiTags('lighting')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class EquipmentController {
  constructor(
    private readonly gateways: GatewaysService,
    private readonly groups: DeviceGroupsService,
  ) {}

  @Post('gatewayPage')
  @HttpCode(200)
  gatewayPage(@Body() dto: GatewayPageDto): Promise<PageResult<GatewayRow>> {
    return this.gateways.page(dto);
  }

  @Get('gatewayList')
  gatewayList(): Promise<GatewayOption[]> {
    return this.gateways.options();
  }

  /** Adds a gateway (Add) or changes one (Edit; a new code also needs Edit MQTT). */
  @Post('gatewayAddOrEdit')
  @HttpCode(200)
  @Audit('Save lamp gateway')
  saveGateway(@CurrentCaller() caller: Caller, @Body() dto: GatewayAddOrEditDto): Promise<{ id: number }> {
    return this.gateways.save(caller, dto);
  }

  @Get('gatewayDel')
  @RequireButton(Button.Delete)
  @Audit('Delete lamp gateway')
  async removeGateway(@Query() q: IdQueryDto): Promise<null> {
    await this.gateways.remove(q.id);
    return null;
  }

  @Post('loopPage')
  @HttpCode(200)
  loopPage(@Body() dto: LoopPageDto): Promise<PageResult<LoopRow>> {
    return this.gateways.loopPage(dto);
  }

  @Get('loopList')
  loopList(@Query() q: LoopListDto): Promise<LoopOption[]> {
    return this.gateways.loopOptions(q.gatewayId);
  }

  @Post('loopAddOrEdit')
  @HttpCode(200)
  @Audit('Save lamp loop')
  saveLoop(@CurrentCaller() caller: Caller, @Body() dto: LoopAddOrEditDto): Promise<{ id: number }> {
    return this.gateways.saveLoop(caller, dto);
  }

  @Get('loopDel')
  @RequireButton(Button.Delete)
  @Audit('Delete lamp loop')
  async removeLoop(@Query() q: IdQueryDto): Promise<null> {
    await this.gateways.removeLoop(q.id);
    return null;
  }

  @Get('groupList')
  groupList(@Query() q: GroupListDto): Promise<DeviceGroupRow[]> {
    return this.groups.list(q.type);
  }

  /** Adds a device group (Add) or renames one (Edit). */
  @Post('groupAddOrEdit')
  @HttpCode(200)
  @Audit('Save device group')
  saveGroup(@CurrentCaller() caller: Caller, @Body() dto: DeviceGroupAddOrEditDto): Promise<{ id: number }> {
    return this.groups.save(caller, dto);
  }

  @Get('groupDel')
  @RequireButton(Button.Delete)
  @Audit('Delete device group')
  async removeGroup(@Query() q: GroupDelDto): Promise<null> {
    await this.groups.remove(q.id, q.type);
    return null;
  }

  /** Moves devices between groups: changing a device's group is editing it. */
  @Post('groupMove')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Move devices to another group')
  moveToGroup(@Body() dto: GroupMoveDto): Promise<DeviceGroupMoveResult> {
    return this.groups.move(dto);
  }
}
