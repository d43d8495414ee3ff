import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { ListExporter } from '../exports/list-export';
import { WifiController } from './wifi.controller';
import { WifiDevicesService } from './wifi-devices.service';
import { WifiTerminalsService } from './wifi-terminals.service';

/** Wi-Fi on the console port: access controllers, access points, their reboot, and their clients now and before. */
@Module({
  imports: [DispatchModule],
  controllers: [WifiController],
  providers: [WifiDevicesService, WifiTerminalsService, ListExporter],
})
export class WifiModule {}
