import { PROBES } from '../infra/service-probes';
import type { AppConfig } from './app-config';
import { ServiceUnavailableError, checkServices } from './preflight';

const config = { databaseUrl: 'postgres://x@127.0.0.1/db', redisUrl: 'redis://127.0.0.1:6379', mqttUrl: 'mqtt://127.0.0.1:1883' } as AppConfig;

describe('checkServices', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asks a broker that is busy again until it answers', async () => {
    const probe = jest
      .spyOn(PROBES, 'mqtt')
      .mockResolvedValueOnce({ ok: false, error: 'connack timeout', latencyMs: null })
      .mockResolvedValueOnce({ ok: false, error: 'connack timeout', latencyMs: null })
      .mockResolvedValue({ ok: true, latencyMs: 1 });
    await checkServices(config, ['mqtt'], false, 5000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('stops at once when the service is not running, and after its patience when it never answers', async () => {
    const refused = jest.spyOn(PROBES, 'redis').mockResolvedValue({ ok: false, error: 'connect ECONNREFUSED 127.0.0.1:6379', latencyMs: null });
    await expect(checkServices(config, ['redis'], false, 5000)).rejects.toThrow(/Redis is not answering at redis:\/\/127.0.0.1:6379/);
    expect(refused).toHaveBeenCalledTimes(1);

    const silent = jest.spyOn(PROBES, 'mqtt').mockResolvedValue({ ok: false, error: 'connack timeout', latencyMs: null });
    const started = Date.now();
    await expect(checkServices(config, ['mqtt'], false, 1200)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(silent.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});
