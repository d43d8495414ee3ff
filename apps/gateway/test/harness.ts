import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createTestDatabase, uniquePrefix, type TestDatabase } from '@sc/testing';
import { loadConfig, type AppConfig } from '../src/config/app-config';
import { DEMO_PASSWORD, loadDemoData } from '../src/demo/demo-data';
import { createConsoleApp, createUploadApp } from '../src/http-app';
import Redis from 'ioredis';

export { DEMO_PASSWORD };

export interface TestGateway {
  config: AppConfig;
  db: TestDatabase;
  baseUrl: string;
  uploadUrl: string;
  redis: Redis;
  /** A client for the console API in the given language, signed out. */
  client(language?: string): ApiClient;
  /** A client signed in as one of the demo users. */
  signedIn(username: 'admin' | 'editor' | 'visitor', language?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

/**
 * Starts the gateway in this process on free ports, against its own fresh database (with the demo
 * users and regions) and its own Redis key prefix.
 */
export async function startTestGateway(overrides: Partial<AppConfig> = {}): Promise<TestGateway> {
  const db = await createTestDatabase('gw');
  await loadDemoData(db.url);
  const uploadDir = await mkdtemp(join(tmpdir(), 'sc-uploads-'));
  const config: AppConfig = {
    ...loadConfig({}),
    databaseUrl: db.url,
    redisPrefix: uniquePrefix('test'),
    host: '127.0.0.1',
    port: 0,
    uploadPort: 0,
    uploadDir,
    webDist: join(uploadDir, 'no-web'),
    ...overrides,
  };
  const apps: NestFastifyApplication[] = [await createConsoleApp(config), await createUploadApp(config)];
  await apps[0].listen(0, '127.0.0.1');
  await apps[1].listen(0, '127.0.0.1');
  const baseUrl = (await apps[0].getUrl()).replace('[::1]', '127.0.0.1');
  const uploadUrl = (await apps[1].getUrl()).replace('[::1]', '127.0.0.1');
  const redis = new Redis(config.redisUrl);
  return {
    config,
    db,
    baseUrl,
    uploadUrl,
    redis,
    client: (language = 'en-US') => new ApiClient(baseUrl, language),
    signedIn: (username, language = 'en-US') => new ApiClient(baseUrl, language).login(username, DEMO_PASSWORD),
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
      const keys = await redis.keys(`${config.redisPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await db.drop();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}
