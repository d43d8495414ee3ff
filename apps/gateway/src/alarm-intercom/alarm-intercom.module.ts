import { Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { BroadcastModule } from '../broadcast/broadcast.module';
import { ListExporter } from '../exports/list-export';
import { LedModule } from '../led/led.module';
import { LightingModule } from '../lighting/lighting.module';
import { UserPresence } from '../realtime/user-presence.service';
import { AlarmIntercomController } from './alarm-intercom.controller';
import { CallRecordingLinks, CallVoiceService } from './call-voice.service';
import { IncidentResponsesService } from './incident-responses.service';
import { AlarmIncidentsService } from './incidents.service';
import { IntercomEndpointsService } from './intercom-endpoints.service';
import { AlarmUserGroupsService } from './user-groups.service';

/**
 * An agent who closes the console (and opens none within the grace) is taken offline: no call rings a console nobody
 * has open, and a call it was on ends (AlarmIncidentsService.agentLeft).
 */
@Injectable()
export class AgentPresence implements OnModuleInit {
  private readonly logger = new Logger(AgentPresence.name);

  constructor(
    private readonly presence: UserPresence,
    private readonly incidents: AlarmIncidentsService,
  ) {}

  onModuleInit(): void {
    this.presence.onLeft((userId) => {
      this.incidents.agentLeft(userId).catch((err: Error) => this.logger.warn(`agent not taken offline: ${err.message}`));
    });
  }
}

/**
 * The alarm intercom on the console port: user groups and agents, incidents and their calls, the call log, and the
 * responses around a column, sent through the lighting, LED and broadcast modules' own control.
 */
@Module({
  imports: [LightingModule, LedModule, BroadcastModule],
  controllers: [AlarmIntercomController],
  providers: [
    CallVoiceService,
    CallRecordingLinks,
    AlarmUserGroupsService,
    AlarmIncidentsService,
    IncidentResponsesService,
    IntercomEndpointsService,
    AgentPresence,
    ListExporter,
  ],
})
export class AlarmIntercomModule {}
