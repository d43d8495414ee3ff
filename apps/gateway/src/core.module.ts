import { Global, Module, type DynamicModule } from '@nestjs/common';
import { UserPresence } from './realtime/user-presence.service';
import { EventBus } from './infra/event-bus.service';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { dataSourceOptions } from '@sc/database';
import { AccessCache } from './auth/access-cache.service';
import { AuthGuard } from './auth/auth.guard';
import { LoginThrottleService } from './auth/login-throttle.service';
import { PasswordService } from './auth/password.service';
import { SessionService } from './auth/session.service';
import { DeviceCredentials } from './broker-access/device-credentials.service';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { createValidationPipe } from './common/validation.pipe';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { DB } from './infra/database';
import { RedisService } from './infra/redis.service';
import { OperationLogInterceptor } from './operation-log/operation-log.interceptor';
import { OperationLogService } from './operation-log/operation-log.service';

/**
 * What every HTTP application of the gateway shares (the console port and the upload port):
 * configuration, the database, Redis, sessions and their cache, the operation log, and the global guard, pipe and filter.
 */
@Global()
@Module({})
export class CoreModule {
  /**
   * `name` tells the applications of one process apart (each has its own data source); `accessCache` is the process's
   * one cache, shared by its applications so that a change made through one is seen at once by the other.
   */
  static forRoot(config: AppConfig, name: string, accessCache: AccessCache): DynamicModule {
    // What the feature modules of the application may inject.
    const services = [
      RedisService,
      PasswordService,
      SessionService,
      LoginThrottleService,
      OperationLogService,
      OperationLogInterceptor,
      DeviceCredentials,
      UserPresence,
      EventBus,
    ];
    return {
      module: CoreModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(config.databaseUrl), name, migrationsRun: false })],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DB, useExisting: getDataSourceToken(name) },
        { provide: AccessCache, useValue: accessCache },
        ...services,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [APP_CONFIG, DB, AccessCache, ...services],
    };
  }
}
