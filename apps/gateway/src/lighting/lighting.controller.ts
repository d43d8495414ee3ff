import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Button, Role, type LampControlResult, type LampRow, type MqttCredentials, type PageResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { LampBatchUpdateGatewayDto, LampBindGatewayDto, LampEditMqttDto, LampIdsDto } from './dto/equipment.dto';
import { LampAddOrEditDto, LampControlDto, LampPageDto } from './dto/lamp.dto';
import { LightingService } from './lighting.service';

/**
 * Single lamps: the smart-lamp pages are for administrators (spec section 6). Buttons are checked as well — Add or
 * Edit for saving, Delete, and the button of each control action — so a wider role list later keeps them apart.
 */
@ApiTags('lighting')
@ApiBearerAuth()
@RequireRoles(Role.Admin)
@Controller('light')
export class LightingController {
  constructor(private readonly lighting: LightingService) {}

  /** Adds a lamp (no id) or changes one (Add or Edit button). */
  @Post('lampAddOrEdit')
  @HttpCode(200)
  @Audit('Save lamp')
  save(@CurrentCaller() caller: Caller, @Body() dto: LampAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.lighting.save(caller, dto);
  }

  @Post('lampPage')
  @HttpCode(200)
  page(@Body() dto: LampPageDto): Promise<PageResult<LampRow>> {
    return this.lighting.page(dto);
  }

  /** Every field of one lamp (the View drawer). */
  @Get('lampDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<LampRow> {
    return this.lighting.detail(q.id);
  }

  /** The lamp's MQTT identity (clientId; plain Edit cannot change it) and new MQTT credentials, answered once. */
  @Post('lampEditMqtt')
  @HttpCode(200)
  @RequireButton(Button.EditMqtt)
  @Audit('Edit lamp MQTT identity')
  editMqtt(@Body() dto: LampEditMqttDto): Promise<{ mqtt?: MqttCredentials }> {
    return this.lighting.editMqtt(dto);
  }

  @Post('lampBindGateway')
  @HttpCode(200)
  @RequireButton(Button.BindGateway)
  @Audit('Bind lamp to gateway')
  async bindGateway(@Body() dto: LampBindGatewayDto): Promise<null> {
    await this.lighting.bindGateway(dto);
    return null;
  }

  @Post('lampBatchUpdateGateway')
  @HttpCode(200)
  @RequireButton(Button.BatchUpdateGateway)
  @Audit('Move lamps to another gateway')
  batchUpdateGateway(@Body() dto: LampBatchUpdateGatewayDto): Promise<{ updated: number }> {
    return this.lighting.batchUpdateGateway(dto);
  }

  @Post('lampBatchDel')
  @HttpCode(200)
  @RequireButton(Button.BatchDelete)
  @Audit('Delete lamps')
  batchRemove(@Body() dto: LampIdsDto): Promise<{ deleted: number }> {
    return this.lighting.batchRemove(dto);
  }

  @Get('lampDel')
  @RequireButton(Button.Delete)
  @Audit('Delete lamp')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.lighting.remove(q.id);
    return null;
  }

  /**
   * Switches, dims or synchronizes lamps (Open lamp, Close lamp, Open and close for dimming, Sync Data for sync);
   * answers the dispatch to follow.
   */
  @Post('lampControl')
  @HttpCode(200)
  @Audit('Control lamps')
  control(@CurrentCaller() caller: Caller, @Body() dto: LampControlDto): Promise<LampControlResult> {
    return this.lighting.control(caller, dto);
  }
}
