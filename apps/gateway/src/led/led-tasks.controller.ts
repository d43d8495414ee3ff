import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  Button,
  LED_FAMILY,
  type LampControlResult,
  type LedTaskDetail,
  type LedTaskRow,
  type LedTaskScreensPage,
  type PageResult,
} from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { LedRealTimePlayDto, LedTaskDto, LedTaskPageDto, LedTaskScreensDto } from './dto/led-tasks.dto';
import { LedSelectionDto } from './dto/led.dto';
import { LedTasksService } from './led-tasks.service';

/**
 * LED real-time play (/ledManage/ledRealTimePlay) and tasks (/ledManage/ledTaskManage): administrators and editors,
 * like the screens. Playing now and stopping need Open and close (they switch what a screen shows); saving a task Add
 * or Edit, publishing it Add, deleting it Delete. Progress and "retry failed only" are the ledger's
 * (/api/dispatch/detail, /api/dispatch/retryFailed).
 */
@ApiTags('LED tasks')
@ApiBearerAuth()
@RequireRoles(...LED_FAMILY.eventRoles)
@Controller('led')
export class LedTasksController {
  constructor(private readonly tasks: LedTasksService) {}

  @Post('realTimePlay')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.play)
  @Audit('Play LED media now')
  realTimePlay(@CurrentCaller() caller: Caller, @Body() dto: LedRealTimePlayDto): Promise<LampControlResult> {
    return this.tasks.realTimePlay(caller, dto);
  }

  @Post('realTimeStop')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.stopPlay)
  @Audit('Stop LED real-time play')
  realTimeStop(@CurrentCaller() caller: Caller, @Body() dto: LedSelectionDto): Promise<LampControlResult> {
    return this.tasks.stopPlay(caller, dto);
  }

  @Post('taskPage')
  @HttpCode(200)
  page(@Body() dto: LedTaskPageDto): Promise<PageResult<LedTaskRow>> {
    return this.tasks.page(dto);
  }

  /** A task with the names of the screens chosen one by one (its form shows them). */
  @Get('taskDetail')
  detail(@Query() q: IdQueryDto): Promise<LedTaskDetail> {
    return this.tasks.detailWithScreens(q.id);
  }

  /**
   * A page of the task's screens (in id order): each one's receive status of the task's latest publication, what it
   * plays, and its time status in its own zone; with the publication and the receive totals over all its screens.
   * DispatchRowsChanged and DeviceStateChanged move the rows live.
   */
  @Post('taskScreens')
  @HttpCode(200)
  screens(@Body() dto: LedTaskScreensDto): Promise<LedTaskScreensPage> {
    return this.tasks.screens(dto);
  }

  /** Adds a task (no id, Add button) or changes one (Edit button). */
  @Post('taskAddOrEdit')
  @HttpCode(200)
  @Audit('Save LED task')
  save(@CurrentCaller() caller: Caller, @Body() dto: LedTaskDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    return this.tasks.save(caller, dto);
  }

  @Post('taskDel')
  @HttpCode(200)
  @RequireButton(Button.Delete)
  @Audit('Delete LED task')
  async remove(@CurrentCaller() caller: Caller, @Body() dto: IdQueryDto): Promise<null> {
    await this.tasks.remove(caller, dto.id);
    return null;
  }

  @Post('taskPublish')
  @HttpCode(200)
  @RequireButton(LED_FAMILY.actions.task)
  @Audit('Publish LED task')
  publish(@CurrentCaller() caller: Caller, @Body() dto: IdQueryDto): Promise<LampControlResult> {
    return this.tasks.publish(caller, dto.id);
  }
}
