import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import type { HealthReport, ServiceHealth } from '@sc/contracts';
import { Public } from '../common/decorators';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RedisService } from '../infra/redis.service';
import { probeMqtt } from '../infra/service-probes';
import { InjectDb } from '../infra/database';

async function timed(run: () => Promise<unknown>, timeoutMs: number): Promise<ServiceHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
    ]);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    return { ok: false, latencyMs: null, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDb() private readonly db: DataSource,
    private readonly redis: RedisService,
  ) {}

  /** Each service's reachability and round-trip time; status is 'degraded' when any one is down. */
  @Public()
  @Get()
  async health(): Promise<HealthReport> {
    const [postgres, redis, mqtt] = await Promise.all([
      timed(() => this.db.query('SELECT 1'), 2000),
      timed(() => this.redis.ping(), 2000),
      probeMqtt(this.config.mqttUrl, 2000),
    ]);
    const services = { postgres, redis, mqtt };
    return {
      status: Object.values(services).every((s) => s.ok) ? 'ok' : 'degraded',
      version: this.config.version,
      uptimeSeconds: Math.round(process.uptime()),
      services,
    };
  }
}
