import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { BROADCAST_FAMILY, type BroadcastTaskRow, type LampControlResult, type PageResult, type TaskStopResult } from '@sc/contracts';
import { Audit, CurrentCaller, RequireButton, RequireRoles } from '../common/decorators';
import type { Caller } from '../common/request-context';
import { BroadcastTaskPageDto, ImmediateBroadcastDto, TaskStopDto } from './dto/task.dto';
import { BroadcastTaskStopService } from './task-stop.service';
import { BroadcastTasksService } from './tasks.service';

/**
 * Broadcast tasks (/broadcastManage/broadcastTask, immediatelyBroadcastTask): opened by the roles that see the
 * terminals; sending a task to terminals needs the button of the family's `task` action (Open and close).
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
}
