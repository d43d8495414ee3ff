/**
 * Work queues between the gateway and the device-family workers (BullMQ). Every job name belongs to one queue and
 * has one payload type; a worker refuses to start when one of its queue's jobs has no handler, or two.
 */
export enum QueueName {
  LampDistribution = 'lamp-distribution',
  BroadcastTasks = 'broadcast-tasks',
  LedTasks = 'led-tasks',
  AdPublishing = 'ad-publishing',
}

export enum JobName {
  /** Send the commands of one dispatch to its lamps (first attempt or a retry of the failed ones). */
  DistributeLampDispatch = 'distribute-lamp-dispatch',
}

export interface JobPayloads {
  [JobName.DistributeLampDispatch]: { dispatchId: string };
}

export const QUEUE_OF_JOB: Readonly<Record<JobName, QueueName>> = {
  [JobName.DistributeLampDispatch]: QueueName.LampDistribution,
};

/** One job, typed by its name. */
export type Job<N extends JobName = JobName> = { [K in N]: { name: K; data: JobPayloads[K] } }[N];

export function jobsOfQueue(queue: QueueName): JobName[] {
  return (Object.keys(QUEUE_OF_JOB) as JobName[]).filter((job) => QUEUE_OF_JOB[job] === queue);
}
