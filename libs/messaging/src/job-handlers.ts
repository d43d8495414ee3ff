import 'reflect-metadata';
import { jobsOfQueue, type JobName, type JobPayloads, type QueueName } from '@sc/contracts';

const HANDLERS = Symbol('jobHandlers');

export type JobHandler<N extends JobName = JobName> = (data: JobPayloads[N], job: { id?: string; attemptsMade: number; name: N }) => Promise<unknown>;

interface Declared {
  job: JobName;
  method: string | symbol;
}

/** Marks a method as the handler of one job name. */
export function OnJob(job: JobName): MethodDecorator {
  return (target, method) => {
    const declared: Declared[] = Reflect.getMetadata(HANDLERS, target) ?? [];
    Reflect.defineMetadata(HANDLERS, [...declared, { job, method }], target);
  };
}

export class JobHandlerError extends Error {}

/**
 * The handlers of one queue, found on the given objects by @OnJob, and given directly (`direct`). Throws, naming
 * them, when a job of the queue has no handler or more than one, or when a handler is for a job of another queue: a
 * worker with a gap or a clash must not start.
 */
export function collectJobHandlers(
  queue: QueueName,
  providers: object[],
  direct: ReadonlyMap<JobName, JobHandler> = new Map(),
  expected: readonly JobName[] = jobsOfQueue(queue),
): Map<JobName, JobHandler> {
  const found = new Map<JobName, JobHandler[]>([...direct].map(([job, handler]) => [job, [handler]]));
  for (const provider of providers) {
    const declared: Declared[] = Reflect.getMetadata(HANDLERS, Object.getPrototypeOf(provider)) ?? [];
    for (const { job, method } of declared) {
      const fn = (provider as Record<string | symbol, unknown>)[method];
      if (typeof fn !== 'function') continue;
      found.set(job, [...(found.get(job) ?? []), (fn as JobHandler).bind(provider) as JobHandler]);
    }
  }
  const problems: string[] = [];
  for (const job of expected) {
    const count = found.get(job)?.length ?? 0;
    if (count === 0) problems.push(`no handler for job "${job}"`);
    if (count > 1) problems.push(`${count} handlers for job "${job}"`);
  }
  for (const job of found.keys()) if (!expected.includes(job)) problems.push(`handler for job "${job}", which is not a job of queue "${queue}"`);
  if (problems.length > 0) throw new JobHandlerError(`Queue "${queue}": ${problems.join('; ')}`);
  return new Map([...found].map(([job, handlers]) => [job, handlers[0]]));
}
