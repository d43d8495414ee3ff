export type ServiceName = 'postgres' | 'redis' | 'mqtt';

export interface ServiceHealth {
  ok: boolean;
  latencyMs: number | null;
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  uptimeSeconds: number;
  services: Record<ServiceName, ServiceHealth>;
}
