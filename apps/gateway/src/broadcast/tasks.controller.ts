import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  BROADCAST_FAMILY,
  Button,
  type BroadcastTaskDetail,
  type BroadcastTaskRow,
  type LampControlResult,
  type PageResult,
  type TaskStopResult,
  type TaskTerminal,
} from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import { IdQueryDto } from '../common/fields';
import type { Caller } from '../common/request-context';
import { BroadcastTaskPageDto, ImmediateBroadcastDto, ScheduledTaskDto, TaskControlDto, TaskStopDto, TaskTerminalPageDto } from './dto/task.dto';
import { BroadcastTaskStopService } from './task-stop.service';
import { BroadcastTasksService } from './tasks.service';

/**
 * Broadcast tasks (/broadcastManage/broadcastTask, immediatelyBroadcastTask): opened by the roles that see the
 * terminals; sending a task to terminals needs the button of the family's `task` action (Open and close), and its
 * play actions that of `taskControl` (the same).
 */
@ApiTags('broadcast tasks')
@ApiBearerAuth()
@RequireRoles(...BROADCAST_FAMILY.eventRoles)
@Controller('broadcast')
export class BroadcastTasksController {
  constructor(
    private readonly tasks: BroadcastTasksService,
    private readonly stopping: BroadcastTaskStopService,
  ) {}

  @Post('taskPage')
  @HttpCode(200)
  page(@Body() dto: BroadcastTaskPageDto): Promise<PageResult<BroadcastTaskRow>> {
    return this.tasks.page(dto);
  }

  /** One task as its list row, with its playlist, terminal ids and next period. */
  @Get('taskDetail')
  @RequireButton(Button.View)
  detail(@Query() q: IdQueryDto): Promise<BroadcastTaskDetail> {
    return this.tasks.detail(q.id);
  }

  /** A page of a task's terminals: each one's delivery (the ledger), time status by its clock, and what it plays now. */
  @Post('taskTerminalPage')
  @HttpCode(200)
  @RequireButton(Button.View)
  terminals(@Body() dto: TaskTerminalPageDto): Promise<PageResult<TaskTerminal>> {
    return this.tasks.terminals(dto);
  }

  /** Plays a playlist or chosen media on terminals now (priority 1 pre-empts); answers the task and its dispatch. */
  @Post('immediateBroadcast')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.task)
  @Audit('Immediate broadcast')
  immediate(@CurrentCaller() caller: Caller, @Body() dto: ImmediateBroadcastDto): Promise<LampControlResult & { id: number }> {
    return this.tasks.immediate(caller, dto);
  }

  /** Stops a task on its terminals (`cancelTask` through the ledger); answers its dispatch. */
  @Post('taskStop')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.cancelTask)
  @Audit('Stop broadcast task')
  stop(@CurrentCaller() caller: Caller, @Body() dto: TaskStopDto): Promise<TaskStopResult> {
    return this.stopping.stop(caller, dto.id);
  }

  /**
   * Adds (no id, Add button) or changes (Edit button) a scheduled task and sends it to its terminals (Open and close);
   * answers the task and the dispatch that delivers it.
   */
  @Post('taskAddOrEdit')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.task)
  @Audit('Save broadcast task')
  save(@CurrentCaller() caller: Caller, @Body() dto: ScheduledTaskDto): Promise<LampControlResult & { id: number }> {
    return this.tasks.save(caller, dto);
  }

  /** Deletes a task (Delete button); its terminals are told to forget it (Open and close). */
  @Get('taskDel')
  @RequireButton(Button.Delete)
  @Audit('Delete broadcast task')
  remove(@CurrentCaller() caller: Caller, @Query() q: IdQueryDto): Promise<{ dispatchId: string | null }> {
    return this.tasks.remove(caller, q.id);
  }

  /** Play, pause, cancel pause or stop one task on its terminals (Open and close); answers the dispatch. */
  @Post('taskControl')
  @HttpCode(200)
  @RequireButton(BROADCAST_FAMILY.actions.taskControl)
  @Audit('Control broadcast task')
  control(@CurrentCaller() caller: Caller, @Body() dto: TaskControlDto): Promise<LampControlResult> {
    return this.tasks.control(caller, dto);
  }
}
