import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import cors from '@fastify/cors';
import { NestFactory } from '@nestjs/core';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '@sc/contracts';
import { translate } from '@sc/i18n';
import { AppModule, UploadAppModule } from './app.module';
import { languageOf } from './common/request-context';
import type { AppConfig } from './config/app-config';

/** Scripts only from this origin, no inline script: the session token is readable by scripts, so nothing else may run. */
function contentSecurityPolicy(config: AppConfig) {
  const uploadOrigin = (req: { headers: Record<string, string | string[] | undefined> }): string => {
    const host = String(req.headers.host ?? 'localhost').replace(/:\d+$/, '');
    return `http://${host}:${config.uploadPort} https://${host}:${config.uploadPort}`;
  };
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine writes CSS variables into style attributes and <style> tags.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // 'self' plus the upload port on the same host name (imports and uploads live on their own port).
      connectSrc: ["'self'", uploadOrigin],
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      // Installations served over plain http on an address must keep working.
      upgradeInsecureRequests: null,
    },
  };
}

function adapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    logger: false,
  });
}

/** Answers unknown API paths with the envelope, and every other GET with the web app's index page. */
function spaFallback(webDist: string | null) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    if (!webDist || path.startsWith('/api/') || path === '/api' || path.startsWith('/socket.io') || req.method !== 'GET') {
      void reply.status(404).send({
        code: 404,
        data: null,
        message: translate(languageOf(req), 'routeNotFound', { path }),
      });
      return;
    }
    void reply.header('Cache-Control', 'no-cache').sendFile('index.html', webDist);
  };
}

export async function createConsoleApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix('api');
  app.useWebSocketAdapter(new IoAdapter(app));
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
  });

  const webDist = resolve(config.webDist);
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders: (reply, path) => {
        // Hashed assets never change; index.html always revalidates.
        void reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Client-side routes: any other GET that is not an API path gets the web app.
  app
    .getHttpAdapter()
    .getInstance()
    .get('/*', spaFallback(hasWeb ? webDist : null));

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Smart City console API')
      .setDescription('Every answer is the envelope { code, data, message }; code 200 is success, -1 means the session ended.')
      .setVersion(config.version)
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        description: 'The token from POST /api/user/login',
      })
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs-json',
  });
  return app;
}

export async function createUploadApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(UploadAppModule.forRoot(config), adapter(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix('api');
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
  });
  await app.register(cors, {
    origin: config.consoleOrigin.split(',').map((o) => o.trim()),
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Accept-Language', 'Content-Type'],
    credentials: true,
    maxAge: 600,
  });
  // The per-route rules (UploadService) set the real limits; this is only the ceiling.
  await app.register(multipart, {
    limits: { fileSize: LIMITS.audioMaxBytes, files: 1 },
  });
  return app;
}
