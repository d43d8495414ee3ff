import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createTestDatabase, uniquePrefix, type TestDatabase } from '@sc/testing';
import { AccessCache } from '../src/auth/access-cache.service';
import { loadConfig, type AppConfig } from '../src/config/app-config';
import { DEMO_PASSWORD, loadDemoData } from '../src/demo/demo-data';
import { createConsoleApp, createUploadApp } from '../src/http-app';
import { BusForwarder } from '../src/realtime/bus-forwarder';

export { DEMO_PASSWORD };

export interface TestGateway {
  config: AppConfig;
  /** The console application, to reach its providers. */
  app: NestFastifyApplication;
  db: TestDatabase;
  baseUrl: string;
  uploadUrl: string;
  redis: Redis;
  /** A client for the console API in the given language, signed out. */
  client(language?: string): ApiClient;
  /** A client signed in as one of the demo users. */
  signedIn(username: 'admin' | 'editor' | 'visitor', language?: string): Promise<ApiClient>;
  /** Another replica: the applications of a second gateway process on the same database and Redis prefix. */
  startReplica(): Promise<TestGateway>;
  close(): Promise<void>;
}

interface Listening {
  apps: NestFastifyApplication[];
  accessCache: AccessCache;
  baseUrl: string;
  uploadUrl: string;
}

/** What one gateway process runs: its access cache and its two applications. */
async function listen(config: AppConfig): Promise<Listening> {
  const accessCache = new AccessCache(config);
  await accessCache.start();
  const apps: NestFastifyApplication[] = [await createConsoleApp(config, accessCache), await createUploadApp(config, accessCache)];
  await apps[0].listen(0, '127.0.0.1');
  await apps[1].listen(0, '127.0.0.1');
  // The workers' events reach sockets from here on (start-up itself does not wait for the subscription). A gateway
  // started against a Redis that does not answer never subscribes: it is not waited for past a few seconds.
  await Promise.race([apps[0].get(BusForwarder).ready, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  const baseUrl = (await apps[0].getUrl()).replace('[::1]', '127.0.0.1');
  const uploadUrl = (await apps[1].getUrl()).replace('[::1]', '127.0.0.1');
  return { apps, accessCache, baseUrl, uploadUrl };
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
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  redis.on('error', () => undefined);
  const all: Listening[] = [];
  const stop = async (listening: Listening) => {
    all.splice(all.indexOf(listening), 1);
    await Promise.all(listening.apps.map((a) => a.close()));
    await listening.accessCache.stop();
  };

  const gatewayOn = (listening: Listening, close: () => Promise<void>): TestGateway => {
    all.push(listening);
    const { baseUrl, uploadUrl } = listening;
    return {
      config,
      app: listening.apps[0],
      db,
      baseUrl,
      uploadUrl,
      redis,
      client: (language = 'en-US') => new ApiClient(baseUrl, language),
      signedIn: (username, language = 'en-US') => new ApiClient(baseUrl, language).login(username, DEMO_PASSWORD),
      startReplica: async () => {
        const replica = await listen(config);
        return gatewayOn(replica, () => stop(replica));
      },
      close,
    };
  };

  return gatewayOn(await listen(config), async () => {
    await Promise.all([...all].map(stop));
    const keys = await redis.keys(`${config.redisPrefix}*`).catch(() => [] as string[]);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await db.drop();
    await rm(uploadDir, { recursive: true, force: true });
  });
}
