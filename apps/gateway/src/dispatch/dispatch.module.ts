import { Module } from '@nestjs/common';
import { DispatchController } from './dispatch.controller';
import { DispatchService } from './dispatch.service';
import { OutboxRelay } from './outbox-relay';

/** The command ledger and the relay that hands its outbox rows to the work queues (one relay per gateway process). */
@Module({
  controllers: [DispatchController],
  providers: [DispatchService, OutboxRelay],
  exports: [DispatchService],
})
export class DispatchModule {}
