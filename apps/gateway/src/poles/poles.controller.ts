import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type DeviceGroupOption, type MountedDevice, type PageResult, type PoleDetail, type PoleRow } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { PoleAddOrEditDto, PoleGroupAddDto, PoleMountDto, PoleMountableDto, PolePageDto } from './dto/pole.dto';
import { PolesService } from './poles.service';

/**
 * Lamp poles under /api/lamp. Spec section 6: pole manage admits admin and visit; a visitor views, and every change
 * is an administrator's, with the Add, Edit or Delete button (mounting and unmounting are edits of the pole).
 */
@ApiTags('lamp poles')
@ApiBearerAuth()
@RequireRoles(Role.Admin, Role.Visit)
@Controller('lamp')
export class PolesController {
  constructor(private readonly poles: PolesService) {}

  @Post('polePage')
  @HttpCode(200)
  page(@Body() dto: PolePageDto): Promise<PageResult<PoleRow>> {
    return this.poles.page(dto);
  }

  @Get('poleDetail')
  detail(@Query() q: IdQueryDto): Promise<PoleDetail> {
    return this.poles.detail(q.id);
  }

  @Get('poleGroups')
  groups(): Promise<DeviceGroupOption[]> {
    return this.poles.groups();
  }

  /** Adds a pole (no id, Add button) or changes one (Edit button). */
  @Post('poleAddOrEdit')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @Audit('Save lamp pole')
  save(@CurrentCaller() caller: Caller, @Body() dto: PoleAddOrEditDto): Promise<{ id: number }> {
    return this.poles.save(caller, dto);
  }

  @Get('poleDel')
  @RequireRoles(Role.Admin)
  @RequireButton(Button.Delete)
  @Audit('Delete lamp pole')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.poles.remove(q.id);
    return null;
  }

  @Post('poleMount')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.Edit)
  @Audit('Mount devices on a lamp pole')
  mount(@Body() dto: PoleMountDto): Promise<{ mounted: number }> {
    return this.poles.mount(dto);
  }

  @Post('poleUnmount')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.Edit)
  @Audit('Unmount devices from a lamp pole')
  unmount(@Body() dto: PoleMountDto): Promise<{ unmounted: number }> {
    return this.poles.unmount(dto);
  }

  /** Devices on no pole, to pick from when mounting. */
  @Post('poleMountable')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.Edit)
  mountable(@Body() dto: PoleMountableDto): Promise<MountedDevice[]> {
    return this.poles.mountable(dto);
  }

  @Post('poleGroupAdd')
  @HttpCode(200)
  @RequireRoles(Role.Admin)
  @RequireButton(Button.Add)
  @Audit('Add lamp pole group')
  addGroup(@Body() dto: PoleGroupAddDto): Promise<{ id: number }> {
    return this.poles.addGroup(dto.name);
  }
}
