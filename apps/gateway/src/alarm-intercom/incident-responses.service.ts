import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  BROADCAST_FAMILY,
  CAMERA_FAMILY,
  INCIDENT_NEARBY,
  IncidentActionKind,
  IncidentResponse,
  IncidentState,
  LAMP_FAMILY,
  LED_FAMILY,
  TASK_NAME_MAX,
  type AlarmIncidentRow,
  type IncidentNearby,
  type IncidentRespondResult,
  type NearbyDevice,
} from '@sc/contracts';
import { loadIncidentRows, logIncidentAction } from '@sc/database';
import { BroadcastTasksService } from '../broadcast/tasks.service';
import { AppException } from '../common/app-exception';
import type { DispatchRecorded } from '../dispatch/device-control.service';
import { maySeeFamily } from '../dispatch/dispatch.service';
import { nearestDevices } from '../common/device-selection';
import type { Caller } from '../common/request-context';
import { InjectDb } from '../infra/database';
import { cameraHasStream } from '../video/camera-filters';
import { LedTasksService } from '../led/led-tasks.service';
import { LightingService } from '../lighting/lighting.service';
import type { IncidentRespondDto } from './dto/intercom.dto';
import { AlarmIncidentsService } from './incidents.service';

/** Each response: the family it goes to, how many of its devices, the log line it writes and its refusal when none is near. */
const RESPONSES = {
  [IncidentResponse.Lamps]: { family: LAMP_FAMILY, count: INCIDENT_NEARBY.lamps, kind: IncidentActionKind.Lamps, none: 'incidentNoLampsNear' },
  [IncidentResponse.Led]: { family: LED_FAMILY, count: INCIDENT_NEARBY.ledScreens, kind: IncidentActionKind.Led, none: 'incidentNoLedNear' },
  [IncidentResponse.Broadcast]: {
    family: BROADCAST_FAMILY,
    count: INCIDENT_NEARBY.terminals,
    kind: IncidentActionKind.Broadcast,
    none: 'incidentNoTerminalsNear',
  },
} as const;

/**
 * An incident pulls in the city around its column: the devices near it (street lights, the LED screen, broadcast
 * terminals), and the responses sent to them, each a dispatch of the device's own family through the command ledger
 * (the lamps' dimming, the LED screens' real-time play, an immediate broadcast), with that family's checks and
 * buttons, and written in the incident's log with its dispatch.
 */
@Injectable()
export class IncidentResponsesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly incidents: AlarmIncidentsService,
    private readonly lighting: LightingService,
    private readonly led: LedTasksService,
    private readonly broadcast: BroadcastTasksService,
  ) {}

  /**
   * The devices near the column, of the families the caller's roles see (the street lights and the cameras are
   * administrators'): those the responses would go to, and the cameras with a stream, whose live view the incident opens.
   */
  async nearby(caller: Caller, id: string): Promise<IncidentNearby> {
    const incident = await this.incident(id);
    const [lamps, ledScreens, terminals] = await Promise.all(
      [IncidentResponse.Lamps, IncidentResponse.Led, IncidentResponse.Broadcast].map((response) =>
        maySeeFamily(caller, RESPONSES[response].family.family) ? this.near(incident, response) : Promise.resolve([]),
      ),
    );
    const cameras =
      maySeeFamily(caller, CAMERA_FAMILY.family) && incident.latitude !== null && incident.longitude !== null
        ? ((await nearestDevices(
            this.db,
            CAMERA_FAMILY,
            { latitude: incident.latitude, longitude: incident.longitude },
            INCIDENT_NEARBY.radiusMeters,
            INCIDENT_NEARBY.cameras,
            cameraHasStream('f'),
          )) as NearbyDevice[])
        : [];
    return { lamps, ledScreens, terminals, cameras };
  }

  /**
   * Sends one response to the devices near the column now (worked out here, not taken from the browser). Refused,
   * sending nothing: an unknown incident (404), a closed one (409), a column with no position or no device of the
   * family near it, a missing or unknown medium (the family's own message). The line of the incident's log is written
   * in the dispatch's transaction, the incident locked and still open: a response is logged if and only if it is sent.
   */
  async respond(caller: Caller, dto: IncidentRespondDto): Promise<IncidentRespondResult> {
    const incident = await this.incident(dto.id);
    if (incident.state === IncidentState.Closed) throw AppException.conflict('incidentClosed');
    if (incident.latitude === null || incident.longitude === null) throw AppException.badRequest('incidentNoPosition');
    const { kind, none } = RESPONSES[dto.response];
    // A JSON null is as missing as no medium at all.
    if (dto.response !== IncidentResponse.Lamps && (dto.mediaId === undefined || dto.mediaId === null)) {
      throw AppException.field('mediaId', dto.response === IncidentResponse.Led ? 'ledTaskNeedsFile' : 'taskMediaEmpty');
    }
    const ids = (await this.near(incident, dto.response)).map((device) => device.id);
    if (ids.length === 0) throw AppException.badRequest(none, { radius: INCIDENT_NEARBY.radiusMeters });
    const logged: DispatchRecorded = async (tx, dispatchId) => {
      const [row]: { state: IncidentState }[] = await tx.query(`SELECT state FROM alarm_incident WHERE id = $1 FOR UPDATE`, [dto.id]);
      if (row?.state === IncidentState.Closed) throw AppException.conflict('incidentClosed');
      await logIncidentAction(tx, dto.id, kind, { userId: caller.userId, userName: caller.username, dispatchId, deviceCount: ids.length });
    };
    const { dispatchId } = await this.send(caller, dto, ids, incident, logged);
    return { dispatchId, incident: await this.incidents.publish(dto.id) };
  }

  private send(
    caller: Caller,
    dto: IncidentRespondDto,
    ids: number[],
    incident: AlarmIncidentRow,
    logged: DispatchRecorded,
  ): Promise<{ dispatchId: string }> {
    switch (dto.response) {
      case IncidentResponse.Lamps:
        return this.lighting.control(caller, { ids, action: 'dim', level: 100 }, logged);
      case IncidentResponse.Led:
        return this.led.realTimePlay(caller, { ids, mediaId: dto.mediaId! }, logged);
      case IncidentResponse.Broadcast:
        return this.broadcast.immediate(
          caller,
          {
            ids,
            // The task's name says which column it answers (in the task list and the terminals' history).
            taskName: `${incident.columnCode} ${incident.columnName}`.slice(0, TASK_NAME_MAX),
            mediaIds: [dto.mediaId!],
            ...INCIDENT_NEARBY.announcement,
          },
          logged,
        );
    }
  }

  private async incident(id: string): Promise<AlarmIncidentRow> {
    const [incident] = await loadIncidentRows<AlarmIncidentRow>(this.db, [id]);
    if (!incident) throw AppException.notFound();
    return incident;
  }

  private async near(incident: AlarmIncidentRow, response: IncidentResponse): Promise<NearbyDevice[]> {
    if (incident.latitude === null || incident.longitude === null) return [];
    const { family, count } = RESPONSES[response];
    const at = { latitude: incident.latitude, longitude: incident.longitude };
    return (await nearestDevices(this.db, family, at, INCIDENT_NEARBY.radiusMeters, count)) as NearbyDevice[];
  }
}
