import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { WifiController } from './wifi.controller';
import { WifiDevicesService } from './wifi-devices.service';
import { WifiSeriesService } from './wifi-series.service';
import { WifiTerminalsService } from './wifi-terminals.service';

/** Wi-Fi on the console port: access controllers, access points, their reboot, their clients now and before, their charts. */
@Module({
  imports: [DispatchModule],
  controllers: [WifiController],
  providers: [WifiDevicesService, WifiTerminalsService, WifiSeriesService, ListExporter],
})
export class WifiModule {}
