import { Controller, Get, HttpStatus, Inject, Logger, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import type { HealthReport, ServiceHealth, ServiceName } from '@sc/contracts';
import { Public } from '../common/decorators';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';
import { RedisService } from '../infra/redis.service';
import { probeMqtt, timed } from '../infra/service-probes';

/** Probes run at most this often, however many callers (load balancers, Kubernetes, people) ask. */
const REPORT_TTL_MS = 2000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly logger = new Logger(HealthController.name);
  private latest: { at: number; report: Promise<HealthReport> } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDb() private readonly db: DataSource,
    private readonly redis: RedisService,
  ) {}

  /**
   * Each service's reachability and round-trip time. HTTP 503 (still in the envelope) while PostgreSQL or Redis is
   * down, so a load balancer or Kubernetes takes this replica out of service; the broker only makes it 'degraded'.
   * Why a probe failed goes to the log, not to the public answer.
   */
  @Public()
  @Get()
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    // A report is shared while its probes run and for REPORT_TTL_MS after they answer: callers arriving together
    // (however slowly the probes answer) cost the services one round of probes.
    if (!this.latest || Date.now() - this.latest.at > REPORT_TTL_MS) {
      const latest = { at: Number.POSITIVE_INFINITY, report: this.probe() };
      void latest.report.finally(() => (latest.at = Date.now())).catch(() => undefined);
      this.latest = latest;
    }
    const report = await this.latest.report;
    if (!report.services.postgres.ok || !report.services.redis.ok) void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }

  private async probe(): Promise<HealthReport> {
    const [postgres, redis, mqtt] = await Promise.all([
      timed(() => this.db.query('SELECT 1'), 2000),
      timed(() => this.redis.ping(), 2000),
      probeMqtt(this.config.mqttUrl, 2000, this.config.mqttLogin),
    ]);
    const services: Record<ServiceName, ServiceHealth> = { postgres, redis, mqtt };
    for (const [name, health] of Object.entries(services)) {
      if (!health.ok) this.logger.warn(`${name} health check failed: ${health.error}`);
      delete health.error;
    }
    return {
      status: Object.values(services).every((s) => s.ok) ? 'ok' : 'degraded',
      version: this.config.version,
      uptimeSeconds: Math.round(process.uptime()),
      services,
    };
  }
}
