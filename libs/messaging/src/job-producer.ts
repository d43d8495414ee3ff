import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { QUEUE_OF_JOB, type JobName, type JobPayloads, type QueueName } from '@sc/contracts';
import { bullPrefix } from './naming';

/** Adds typed jobs to the work queues. One BullMQ Queue per queue name, created on first use. */
export class JobProducer {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly redisPrefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: bullPrefix(this.redisPrefix) });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Adds one job. `jobId` makes it idempotent: adding the same id again while the job exists does nothing, so a
   * producer that crashed after adding but before recording it can simply add it again.
   */
  async enqueue<N extends JobName>(name: N, data: JobPayloads[N], options: JobsOptions & { jobId: string }): Promise<void> {
    await this.queue(QUEUE_OF_JOB[name]).add(name, data, { removeOnComplete: 1000, removeOnFail: 5000, ...options });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
