import type { Logger } from 'pino';
import { JobName, type JobPayloads } from '@sc/contracts';
import { OnJob } from '@sc/messaging';
import type { CommandSender } from './command-sender';

/** The lamp distribution queue's job: publish the dispatch's queued rows (a first attempt, or a "retry failed only"). */
export class DistributeLampDispatchProcessor {
  constructor(
    private readonly sender: CommandSender,
    private readonly logger: Logger,
  ) {}

  @OnJob(JobName.DistributeLampDispatch)
  async distribute(data: JobPayloads[JobName.DistributeLampDispatch]): Promise<{ published: number }> {
    const started = Date.now();
    const published = await this.sender.sendQueued({ dispatchId: data.dispatchId });
    this.logger.info({ dispatchId: data.dispatchId, published, ms: Date.now() - started }, 'dispatch distributed');
    return { published };
  }
}
