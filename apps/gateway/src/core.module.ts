import { Global, Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '@sc/database';
import { AuthGuard } from './auth/auth.guard';
import { LoginThrottleService } from './auth/login-throttle.service';
import { PasswordService } from './auth/password.service';
import { SessionService } from './auth/session.service';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/envelope.interceptor';
import { createValidationPipe } from './common/validation.pipe';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { RedisService } from './infra/redis.service';
import { OperationLogInterceptor } from './operation-log/operation-log.interceptor';

/**
 * What every HTTP application of the gateway shares (the console port and the upload port):
 * configuration, logging, the database, Redis, sessions, and the global guard, pipe, filter and interceptors.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
    return {
      module: CoreModule,
      imports: [
        LoggerModule.forRoot({
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: {
            level: process.env.LOG_LEVEL ?? 'info',
            transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } : undefined,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'debug'),
            autoLogging: { ignore: (req) => req.url === '/api/health' },
          },
        }),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl), migrationsRun: false }),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        RedisService,
        PasswordService,
        SessionService,
        LoginThrottleService,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: OperationLogInterceptor },
      ],
      exports: [APP_CONFIG, RedisService, PasswordService, SessionService, LoginThrottleService],
    };
  }
}
