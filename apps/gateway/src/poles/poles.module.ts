import { Module } from '@nestjs/common';
import { PolesController } from './poles.controller';
import { PolesService } from './poles.service';

/** Lamp poles and the devices mounted on them. */
@Module({
  controllers: [PolesController],
  providers: [PolesService],
})
export class PolesModule {}
