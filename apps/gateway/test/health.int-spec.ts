import type { HealthReport } from '@sc/contracts';
import { startTestGateway, type TestGateway } from './harness';

describe('GET /api/health', () => {
  let healthy: TestGateway;
  let withoutRedis: TestGateway;
  beforeAll(async () => {
    healthy = await startTestGateway();
    withoutRedis = await startTestGateway({ redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => {
    await healthy.close();
    await withoutRedis.close();
  });

  it('reports each service with its latency, without a session', async () => {
    const answer = await healthy.client().get<HealthReport>('/api/health');
    expect(answer.status).toBe(200);
    expect(answer.body.data.status).toBe('ok');
    for (const name of ['postgres', 'redis', 'mqtt'] as const) {
      expect(answer.body.data.services[name]).toEqual({ ok: true, latencyMs: expect.any(Number) });
    }
  });

  it('answers 503 while Redis is down, so the replica leaves the load balancer, and says nothing of why', async () => {
    const answer = await withoutRedis.client().get<HealthReport>('/api/health');
    expect(answer.status).toBe(503);
    expect(answer.body.data.status).toBe('degraded');
    expect(answer.body.data.services.redis).toEqual({ ok: false, latencyMs: null });
    expect(answer.body.data.services.postgres.ok).toBe(true);
    expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
  });

  it('runs the probes once for callers arriving together', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => healthy.client().get<HealthReport>('/api/health')));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data.services))).size).toBe(1);
  });
});
