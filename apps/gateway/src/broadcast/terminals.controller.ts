import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  BROADCAST_FAMILY,
  Button,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type TerminalHistory,
  type TerminalRow,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { TerminalAddOrEditDto, TerminalHistoryDto, TerminalPageDto, TerminalPlaybackDto, TerminalVolumeDto } from './dto/terminal.dto';
import { TerminalHistoryService } from './terminal-history.service';
import { TerminalsService } from './terminals.service';

/**
 * Broadcast terminals (/broadcastManage/terminalManagement). The spec gates no broadcast route, so the roles that
 * receive the family's events open it (administrators, editors, visitors); changes need their buttons: Add or Edit
 * for saving, Delete, Edit for volumes (a setting of the terminal), Open and close for pausing, resuming and stopping
 * what the terminals play.
 */
@ApiTags('broadcast terminals')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class TerminalsController {
  constructor(
    private readonly terminals: TerminalsService,
    private readonly history_: TerminalHistoryService,
  ) {}

  @Post('terminalPage')
  @HttpCode(200)
  page(@Body() dto: TerminalPageDto): Promise<PageResult<TerminalRow>> {
    return this.terminals.page(dto);
  }

  /** One terminal's record and state (terminalDetail). */
  @Get('terminalDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<TerminalRow> {
    return this.terminals.detail(q.id);
  }

  /** A terminal's day: what it played or carried, and how busy it was hour by hour, by its own clock. */
  @Get('terminalHistory')
  @RequireButton(Button.View)
  history(@Query() q: TerminalHistoryDto): Promise<TerminalHistory> {
    return this.history_.day(q.id, q.date);
  }

  /** Adds a terminal (no id) or changes one (Add or Edit button); a new one's MQTT login is answered once. */
  @Post('terminalAddOrEdit')
  @HttpCode(200)
  @Audit('Save broadcast terminal')
  save(@CurrentCaller() caller: Caller, @Body() dto: TerminalAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.terminals.save(caller, dto);
  }

  @Get('terminalDel')
  @RequireButton(Button.Delete)
  @Audit('Delete broadcast terminal')
  async remove(@Query() q: IdQueryDto): Promise<null> {
    await this.terminals.remove(q.id);
    return null;
  }

  /** Sets the broadcast and/or interphone volume of terminals; answers the dispatch to follow. */
  @Post('terminalVolume')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.volume)
  @Audit('Set terminal volume')
  volume(@CurrentCaller() caller: Caller, @Body() dto: TerminalVolumeDto): Promise<LampControlResult> {
    return this.terminals.volume(caller, dto);
  }

  /** Pauses, resumes or stops what terminals play; answers the dispatch to follow. */
  @Post('terminalPlayback')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.stop)
  @Audit('Control terminal playback')
  playback(@CurrentCaller() caller: Caller, @Body() dto: TerminalPlaybackDto): Promise<LampControlResult> {
    return this.terminals.playback(caller, dto);
  }
}
