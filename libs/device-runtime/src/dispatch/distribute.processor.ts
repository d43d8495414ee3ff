import type { Logger } from 'pino';
import type { JobHandler } from '@sc/messaging';
import type { JobName, JobPayloads } from '@sc/contracts';
import type { CommandSender } from './command-sender';

/**
 * The job of every family that takes commands: publish one dispatch's queued rows (a first attempt, or a "retry failed
 * only"). The dispatch row names its family, so one handler serves every family's job; each job name still gets its
 * own entry, so a queue with a job of a family this worker does not serve is refused at start-up (createJobWorker).
 */
export function distributeHandlers(jobs: readonly JobName[], sender: CommandSender, logger: Logger): Map<JobName, JobHandler> {
  const distribute = async (data: JobPayloads[JobName]): Promise<{ published: number }> => {
    const started = Date.now();
    const published = await sender.sendQueued({ dispatchId: data.dispatchId });
    logger.info({ dispatchId: data.dispatchId, published, ms: Date.now() - started }, 'dispatch distributed');
    return { published };
  };
  return new Map(jobs.map((job) => [job, distribute as JobHandler]));
}
