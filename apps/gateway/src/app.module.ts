import { Module, type DynamicModule } from '@nestjs/common';
import { AlarmsModule } from './alarms/alarms.module';
import { BroadcastModule, BroadcastUploadModule } from './broadcast/broadcast.module';
import { SignageModule, SignageScreenshotUploadModule } from './signage/signage.module';
import { EnergyModule } from './energy/energy.module';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import type { AccessCache } from './auth/access-cache.service';
import type { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { HealthController } from './health/health.controller';
import { ImportDownloadsModule, ImportsModule } from './imports/imports.module';
import { LedModule, LedUploadModule } from './led/led.module';
import { RadarModule } from './radar/radar.module';
import { WifiModule } from './wifi/wifi.module';
import { AlarmColumnsModule } from './alarm-columns/alarm-columns.module';
import { VideoModule } from './video/video.module';
import { AlarmIntercomModule } from './alarm-intercom/alarm-intercom.module';
import { LightingModule } from './lighting/lighting.module';
import { StripsModule } from './strips/strips.module';
import { SignageMaterialsModule, SignageMaterialsUploadModule } from './signage-materials/signage-materials.module';
import { SignageAdsModule } from './signage-ads/signage-ads.module';
import { SignagePlansModule } from './signage-plans/signage-plans.module';
import { StrategiesModule } from './strategies/strategies.module';
import { OperationLogController } from './operation-log/operation-log.controller';
import { PolesModule } from './poles/poles.module';
import { BusForwarder } from './realtime/bus-forwarder';
import { RealtimeGateway } from './realtime/realtime.gateway';
import { RegionsController } from './regions/regions.controller';
import { RegionsService } from './regions/regions.service';
import { UploadService } from './uploads/upload.service';
import { WorkbookReader } from './uploads/workbook-reader.service';
import { FilesController } from './uploads/files.controller';
import { UsersController } from './users/users.controller';
import { MqttCredentialsController } from './broker-access/mqtt-credentials.controller';
import { UsersService } from './users/users.service';

/** The console API on the main port (8080): REST under /api, socket.io under /socket.io. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, accessCache: AccessCache): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, 'console', accessCache),
        PolesModule,
        ImportDownloadsModule,
        LightingModule,
        StripsModule,
        StrategiesModule,
        AlarmsModule,
        EnergyModule,
        BroadcastModule,
        SignageMaterialsModule,
        SignageAdsModule,
        SignagePlansModule,
        SignageModule,
        LedModule,
        RadarModule,
        WifiModule,
        AlarmColumnsModule,
        AlarmIntercomModule,
        VideoModule,
      ],
      controllers: [AuthController, UsersController, RegionsController, OperationLogController, HealthController, MqttCredentialsController],
      providers: [AuthService, UsersService, RegionsService, RealtimeGateway, BusForwarder],
    };
  }
}

/** Imports and uploads on their own port (8888), as the spec places them. */
@Module({})
export class UploadAppModule {
  static forRoot(config: AppConfig, accessCache: AccessCache): DynamicModule {
    return {
      module: UploadAppModule,
      imports: [
        CoreModule.forRoot(config, 'uploads', accessCache),
        ImportsModule,
        BroadcastUploadModule,
        SignageMaterialsUploadModule,
        SignageScreenshotUploadModule,
        LedUploadModule,
      ],
      controllers: [FilesController],
      providers: [UploadService, WorkbookReader],
    };
  }
}
