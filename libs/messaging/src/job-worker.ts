import { Worker, type ConnectionOptions, type WorkerOptions } from 'bullmq';
import type { JobName, QueueName } from '@sc/contracts';
import { collectJobHandlers, type JobHandler } from './job-handlers';
import { bullPrefix } from './naming';

export interface JobWorkerOptions extends Omit<WorkerOptions, 'connection' | 'prefix'> {
  connection: ConnectionOptions;
  redisPrefix: string;
}

/**
 * A BullMQ worker for one queue whose jobs go to the @OnJob handlers of `providers` and to the `direct` ones. The
 * handlers are checked first: a job of the queue without a handler, or with two, throws here and the worker never
 * starts.
 */
export function createJobWorker(
  queue: QueueName,
  providers: object[],
  options: JobWorkerOptions,
  direct?: ReadonlyMap<JobName, JobHandler>,
  /** The jobs of the queue, when more than the declared families' (a family declared outside libs/contracts). */
  expected?: readonly JobName[],
): Worker {
  const handlers = collectJobHandlers(queue, providers, direct, expected);
  const { connection, redisPrefix, ...rest } = options;
  return new Worker(
    queue,
    async (job) => {
      const handler = handlers.get(job.name as JobName);
      if (!handler) throw new Error(`Queue "${queue}": no handler for job "${job.name}"`);
      return handler(job.data, { id: job.id, attemptsMade: job.attemptsMade, name: job.name as JobName });
    },
    { ...rest, connection, prefix: bullPrefix(redisPrefix) },
  );
}
