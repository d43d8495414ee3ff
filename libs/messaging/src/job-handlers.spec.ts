import { JobName, QueueName } from '@sc/contracts';
import { collectJobHandlers, JobHandlerError, OnJob } from './job-handlers';

class Distributor {
  calls: string[] = [];
  @OnJob(JobName.DistributeLampDispatch)
  async distribute(data: { dispatchId: string }) {
    this.calls.push(data.dispatchId);
  }
}

class SecondDistributor {
  @OnJob(JobName.DistributeLampDispatch)
  async distribute() {}
}

describe('job handlers', () => {
  it('finds the handler of every job of the queue by its decorator', async () => {
    const provider = new Distributor();
    const handlers = collectJobHandlers(QueueName.LampDistribution, [provider, {}]);
    await handlers.get(JobName.DistributeLampDispatch)!({ dispatchId: 'd1' }, { attemptsMade: 0, name: JobName.DistributeLampDispatch });
    expect(provider.calls).toEqual(['d1']);
  });

  it('refuses a queue with a job that has no handler', () => {
    expect(() => collectJobHandlers(QueueName.LampDistribution, [{}])).toThrow(
      new JobHandlerError('Queue "lamp-distribution": no handler for job "distribute-lamp-dispatch"'),
    );
  });

  it('refuses a job with two handlers', () => {
    expect(() => collectJobHandlers(QueueName.LampDistribution, [new Distributor(), new SecondDistributor()])).toThrow(
      /2 handlers for job "distribute-lamp-dispatch"/,
    );
  });

  it('refuses a handler for a job of another queue', () => {
    expect(() => collectJobHandlers(QueueName.LedTasks, [new Distributor()])).toThrow(/not a job of queue "led-tasks"/);
  });
});
