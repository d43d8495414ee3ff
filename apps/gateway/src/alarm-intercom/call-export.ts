import { translate } from '@sc/i18n';
import type { ListExportSource } from '../exports/list-export';
import type { AlarmCallFiltersDto } from './dto/intercom.dto';
import { callOrder, callWhere } from './incidents.service';

/** The call log's filters, and the zone its times are written in (the installation's). */
export type CallExportFilters = AlarmCallFiltersDto & { timeZone: string };

/** The call log as an xlsx download, filtered and sorted as on screen; times in the installation's zone, words in the caller's language. */
export const CALL_EXPORT: ListExportSource<CallExportFilters> = {
  sheetName: 'calls',
  columns: [
    'startTime',
    'alarmColumn',
    'code',
    'columnSip',
    'agent',
    'agentSip',
    'callType',
    'callDirection',
    'callStatus',
    'answeredAt',
    'endTime',
    'duration',
  ],
  query: (filters) => {
    // The zone is the installation's setting (never the caller's input), written as a literal: the export reads its
    // rows by id in a statement of their own, which has no other parameter.
    const zone = `'${filters.timeZone.replace(/'/g, "''")}'`;
    const local = (column: string) => `to_char(${column} AT TIME ZONE ${zone}, 'YYYY-MM-DD HH24:MI:SS')`;
    return {
      select: `${local('c.started_at')} AS "startTime", c.device_name AS "alarmColumn", c.device_code AS code, c.column_sip AS "columnSip",
        c.agent_name AS agent, c.agent_sip AS "agentSip", c.call_type AS "callType", c.direction AS "callDirection", c.status AS "callStatus",
        ${local('c.answered_at')} AS "answeredAt", ${local('c.ended_at')} AS "endTime", c.duration_s AS duration`,
      from: 'alarm_call c',
      where: callWhere(filters),
      orderBy: callOrder(filters.sort).inner,
      id: 'c.id',
    };
  },
  present: (row, lng) => ({
    ...row,
    callDirection: translate(lng, `callDirection${String(row.callDirection)}` as 'callDirection1'),
    callStatus: translate(lng, `callStatus${String(row.callStatus)}` as 'callStatusConnected'),
  }),
};
