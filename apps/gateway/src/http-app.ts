import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import cors from '@fastify/cors';
import { NestFactory } from '@nestjs/core';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, LIMITS, ResultCode, SCREENSHOT_MAX_BYTES } from '@sc/contracts';
import { translate, type MessageKey } from '@sc/i18n';
import { AppModule, UploadAppModule } from './app.module';
import type { AccessCache } from './auth/access-cache.service';
import { languageOf } from './common/request-context';
import type { AppConfig } from './config/app-config';
import { NestPinoLogger, createRootLogger, logRequests } from './infra/logger';

const rootLogger = createRootLogger('gateway');

/** The Host header without its port. */
function hostOf(header: string | undefined): string {
  const value = header ?? '';
  return value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.replace(/:\d+$/, '');
}

/** Whether a host looks like a host name, an IPv4 address or a bracketed IPv6 address. */
const looksLikeHost = (host: string): boolean => /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(host);

/** A Host header is only trusted as far as it looks like a host name, an IPv4 address or a bracketed IPv6 address. */
function hostName(header: string | undefined): string {
  const host = hostOf(header);
  return looksLikeHost(host) ? host : 'localhost';
}

/**
 * Answers 421 to a request whose Host is not one of ALLOWED_HOSTS (DNS rebinding: a page of another site whose name
 * the attacker points at this machine would otherwise talk to the console as if it were its own). Health checks are
 * answered whatever the host, for the probes of an orchestrator that call a pod by its address.
 */
function hostGuard(config: AppConfig) {
  const allowed = new Set(config.allowedHosts);
  return (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (allowed.size === 0 || req.url.startsWith('/api/health')) return done();
    const host = hostOf(req.headers.host);
    if (allowed.has(host.toLowerCase())) return done();
    const shown = looksLikeHost(host) ? host : '?';
    void reply.status(421).send({ code: 421, data: null, message: translate(languageOf(req), 'hostNotAllowed', { host: shown }) });
  };
}

/**
 * The console port's API takes JSON bodies only: a body of another type (text, a form, XML) answers a translated 415
 * before anything parses it, so no route sees a string where it expects an object and nothing is logged of it.
 * A request without a body (GET, a POST with nothing in it) passes. socket.io answers its own paths.
 */
function jsonBodiesOnly(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.url.startsWith('/socket.io')) return done();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return done();
  void reply.status(415).send({ code: 415, data: null, message: translate(languageOf(req), 'jsonBodyExpected') });
}

/**
 * Scripts only from this origin, no inline script: the session token is readable by scripts, so nothing else may run.
 * connect-src adds the upload port on the host name the console was opened with; the header is built once per host.
 */
export function contentSecurityPolicy(config: AppConfig): (hostHeader: string | undefined) => string {
  const byHost = new Map<string, string>();
  return (hostHeader) => {
    const host = hostName(hostHeader);
    let header = byHost.get(host);
    if (!header) {
      const upload = `http://${host}:${config.uploadPort} https://${host}:${config.uploadPort}`;
      header = [
        "default-src 'self'",
        "script-src 'self'",
        // Mantine writes CSS variables into style attributes and <style> tags.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        `connect-src 'self' ${upload}`,
        "media-src 'self' blob:",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ].join('; ');
      if (byHost.size >= 64) byHost.clear();
      byHost.set(host, header);
    }
    return header;
  };
}

/**
 * Nest hands every route handler's result to the adapter's reply(): that is where it becomes the envelope
 * `{ code: 200, data, message: 'success' }`. (Errors are answered by AllExceptionsFilter, which sends its own.)
 * Doing it here rather than in an interceptor keeps reads free of interceptor machinery.
 */
class EnvelopeFastifyAdapter extends FastifyAdapter {
  override reply(response: Parameters<FastifyAdapter['reply']>[0], body: unknown, statusCode?: number): ReturnType<FastifyAdapter['reply']> {
    return super.reply(response, { code: ResultCode.Success, data: body ?? null, message: 'success' }, statusCode);
  }
}

/**
 * A request Node refuses before Fastify sees it (headers or address over 16 kB, a malformed request line, a time-out)
 * is answered with the envelope too. Its headers were never read, so the message is in the default language.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return;
  const [status, key]: [number, MessageKey] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headersTooLarge']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'tryLater']
        : [400, 'malformedRequest'];
  const body = JSON.stringify({ code: status, data: null, message: translate(DEFAULT_LANGUAGE, key) });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function adapter(config: AppConfig): FastifyAdapter {
  return new EnvelopeFastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    logger: false,
    clientErrorHandler,
  });
}

/**
 * Answers unknown API paths with the envelope, and every other GET with the web app's index page. A missing file
 * (a name with an extension, such as a chunk of an earlier build that a tab still asks for) is a 404, never the
 * index page, so the browser sees a failed load instead of HTML served as a script.
 */
function spaFallback(webDist: string | null) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    const isFile = /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf('/') + 1));
    if (!webDist || isFile || path.startsWith('/api/') || path === '/api' || path.startsWith('/socket.io')) {
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

export async function createConsoleApp(config: AppConfig, accessCache: AccessCache): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, accessCache), adapter(config), {
    logger: new NestPinoLogger(rootLogger),
  });
  app.setGlobalPrefix('api');
  app.useWebSocketAdapter(new IoAdapter(app));
  await app.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  const csp = contentSecurityPolicy(config);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', hostGuard(config));
  fastify.addHook('onRequest', jsonBodiesOnly);
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('Content-Security-Policy', csp(req.headers.host));
    done();
  });
  logRequests(fastify, rootLogger);

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
  fastify.get('/*', spaFallback(hasWeb ? webDist : null));

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

export async function createUploadApp(config: AppConfig, accessCache: AccessCache): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(UploadAppModule.forRoot(config, accessCache), adapter(config), {
    logger: new NestPinoLogger(rootLogger),
  });
  app.setGlobalPrefix('api');
  app.getHttpAdapter().getInstance().addHook('onRequest', hostGuard(config));
  logRequests(app.getHttpAdapter().getInstance(), rootLogger);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
  });
  await app.register(cors, {
    origin: config.consoleOrigin.split(',').map((o) => o.trim()),
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Accept-Language', 'Content-Type'],
    // The console sends cookies with every call (spec section 7), so the browser needs this to read the answer;
    // the server itself never authenticates from a cookie.
    credentials: true,
    maxAge: 600,
  });
  // The per-route rules (UploadService) set the real limits; this is only the ceiling.
  await app.register(multipart, {
    limits: { fileSize: LIMITS.audioMaxBytes, files: 1 },
  });
  // A floor screen's screenshot is the body itself (ScreenshotUploadController): read whole, cut off past
  // SCREENSHOT_MAX_BYTES (413), its content checked by its first bytes whatever the type says.
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser(
      ['image/jpeg', 'image/png', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: SCREENSHOT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
  return app;
}
