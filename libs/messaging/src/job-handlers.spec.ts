import { JobName, QueueName } from '@sc/contracts';
import { collectJobHandlers, JobHandlerError, OnJob } from './job-handlers';

class Distributor {
  calls: string[] = [];
  @OnJob(JobName.DistributeLampDispatch)
  async distribute(data: { dispatchId: string }) {
    this.calls.push(data.dispatchId);
  }

  @OnJob(JobName.DistributeStripDispatch)
  async distributeStrips(data: { dispatchId: string }) {
    this.calls.push(`strip ${data.dispatchId}`);
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
    await handlers.get(JobName.DistributeStripDispatch)!({ dispatchId: 'd2' }, { attemptsMade: 0, name: JobName.DistributeStripDispatch });
    expect(provider.calls).toEqual(['d1', 'strip d2']);
  });

  it('takes handlers given directly beside decorated ones, and counts them as handlers', async () => {
    const calls: string[] = [];
    const direct = new Map([[JobName.DistributeStripDispatch, async (data: { dispatchId: string }) => void calls.push(data.dispatchId)]]);
    const handlers = collectJobHandlers(QueueName.LampDistribution, [new SecondDistributor()], direct);
    await handlers.get(JobName.DistributeStripDispatch)!({ dispatchId: 'd3' }, { attemptsMade: 0, name: JobName.DistributeStripDispatch });
    expect(calls).toEqual(['d3']);
    expect(() => collectJobHandlers(QueueName.LampDistribution, [new Distributor()], direct)).toThrow(
      /2 handlers for job "distribute-strip-dispatch"/,
    );
  });

  it('refuses a queue with a job that has no handler', () => {
    expect(() => collectJobHandlers(QueueName.LampDistribution, [{}])).toThrow(
      new JobHandlerError('Queue "lamp-distribution": no handler for job "distribute-lamp-dispatch"; no handler for job "distribute-strip-dispatch"'),
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
