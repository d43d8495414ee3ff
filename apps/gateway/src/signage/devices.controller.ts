import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  Button,
  SIGNAGE_FAMILY,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type SignageDeviceRow,
  type SignageScreenshot,
} from '@sc/contracts';
import { Audit, CurrentCaller, Public, RequireButton, RequireRoles } from '../common/decorators';
import { sendFile } from '../common/file-response';
import { IdQueryDto } from '../common/fields';
import type { AppRequest, Caller } from '../common/request-context';
import {
  SignageBindDto,
  SignageDeviceAddOrEditDto,
  SignageDevicePageDto,
  SignageMoveDto,
  SignageScreenshotQueryDto,
  SignageSelectionDto,
  SignageVolumeDto,
} from './dto/device.dto';
import { SignageDevicesService } from './devices.service';
import { SignageScreenshotsService } from './screenshots.service';

/**
 * Floor screens (/floor-screen/device). The spec gates no floor-screen route; the module is for administrators and
 * editors (SIGNAGE_FAMILY.eventRoles), who run the equipment day to day. Changes need their buttons: Add or Edit for
 * saving, Delete, Edit for binding and moving, and the declared button of each command.
 */
@ApiTags('floor screens')
@ApiBearerAuth()
@RequireRoles(...SIGNAGE_FAMILY.eventRoles)
@Controller('signage')
export class SignageDevicesController {
  constructor(
    private readonly devices: SignageDevicesService,
    private readonly screenshots: SignageScreenshotsService,
  ) {}

  /** Players by name or code, group (0: none) and network status. */
  @Post('devicePage')
  @HttpCode(200)
  page(@Body() dto: SignageDevicePageDto): Promise<PageResult<SignageDeviceRow>> {
    return this.devices.page(dto);
  }

  @Get('deviceDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<SignageDeviceRow> {
    return this.devices.detail(q.id);
  }

  /** Adds a player (no id; Add) or changes one (Edit); a new one's MQTT login is answered once. */
  @Post('deviceAddOrEdit')
  @HttpCode(200)
  @Audit('Save floor screen')
  save(@CurrentCaller() caller: Caller, @Body() dto: SignageDeviceAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.devices.save(caller, dto);
  }

  @Get('deviceDel')
  @RequireButton(Button.Delete)
  @Audit('Delete floor screen')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.devices.remove(q.id);
    return null;
  }

  /** Binds players in no group to a group. */
  @Post('bind')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Bind floor screens to a group')
  async bind(@Body() dto: SignageBindDto): Promise<null> {
    await this.devices.bind(dto, false);
    return null;
  }

  /** Moves players to another group. */
  @Post('move')
  @HttpCode(200)
  @RequireButton(Button.Edit)
  @Audit('Move floor screens to another group')
  async move(@Body() dto: SignageMoveDto): Promise<null> {
    await this.devices.bind(dto, true);
    return null;
  }

  /** Sets the volume; answers the dispatch to follow. */
  @Post('volume')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.volume)
  @Audit('Set floor-screen volume')
  volume(@CurrentCaller() caller: Caller, @Body() dto: SignageVolumeDto): Promise<LampControlResult> {
    return this.devices.volume(caller, dto);
  }

  @Post('mute')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.mute)
  @Audit('Mute floor screens')
  mute(@CurrentCaller() caller: Caller, @Body() dto: SignageSelectionDto): Promise<LampControlResult> {
    return this.devices.command(caller, dto, 'mute');
  }

  @Post('unmute')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.unmute)
  @Audit('Unmute floor screens')
  unmute(@CurrentCaller() caller: Caller, @Body() dto: SignageSelectionDto): Promise<LampControlResult> {
    return this.devices.command(caller, dto, 'unmute');
  }

  @Post('reboot')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.reboot)
  @Audit('Reboot floor screens')
  reboot(@CurrentCaller() caller: Caller, @Body() dto: SignageSelectionDto): Promise<LampControlResult> {
    return this.devices.command(caller, dto, 'reboot');
  }

  /** Asks the players for a screenshot, each with its own upload link; answers the dispatch to follow. */
  @Post('screenshot')
  @HttpCode(200)
  @RequireButton(SIGNAGE_FAMILY.actions.screenshot)
  @Audit('Take floor-screen screenshot')
  screenshot(@CurrentCaller() caller: Caller, @Body() dto: SignageSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, dto, 'screenshot', (tx, deviceIds) => this.screenshots.requested(tx, deviceIds, caller.username));
  }

  /** The player's latest screenshot (a signed link to show it, when it was taken, its size); null when none came yet. */
  @Get('screenshot')
  @RequireButton(Button.View)
  latestScreenshot(@Query() q: SignageScreenshotQueryDto): Promise<SignageScreenshot | null> {
    return this.screenshots.latest(q.deviceId);
  }

  /** A screenshot's picture, for a signed link (an img element sends no session). */
  @Get('screenshot/image')
  @Public()
  @ApiProduces('image/jpeg', 'image/png')
  async screenshotImage(@Req() req: AppRequest, @Res() reply: FastifyReply): Promise<void> {
    sendFile(reply, req.headers as { range?: string; 'if-range'?: string }, await this.screenshots.imageOf(req.query as Record<string, unknown>));
  }
}
