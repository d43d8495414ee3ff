import { Module } from '@nestjs/common';
import { DispatchController } from './dispatch.controller';
import { DeviceControlService } from './device-control.service';
import { DispatchRenewals } from './dispatch-renewals';
import { DispatchService } from './dispatch.service';
import { OutboxRelay } from './outbox-relay';

/**
 * The command ledger: control actions of every family (DeviceControlService), a dispatch's progress and retries, and
 * the relay that hands outbox rows to the work queues (one relay per gateway process).
 */
@Module({
  controllers: [DispatchController],
  providers: [DispatchService, DeviceControlService, DispatchRenewals, OutboxRelay],
  exports: [DispatchService, DeviceControlService, DispatchRenewals],
})
export class DispatchModule {}
