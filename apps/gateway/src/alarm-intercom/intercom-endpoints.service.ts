import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AccountStatus, AgentMode, CallProtocol, IntercomEndpointKind, OnlineState, type IntercomEndpointRow, type PageResult } from '@sc/contracts';
import { groupOfColumn } from '@sc/database';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { IntercomEndpointPageDto } from './dto/intercom.dto';

/**
 * Every intercom endpoint as one list `e`: the alarm columns (SIP, an account when they have a SIP account, online on
 * the broker) and the agents of the user groups (their record's protocol and account status, online unless OFFLINE).
 */
const ENDPOINTS = `(
  SELECT '${IntercomEndpointKind.Column}'::text AS kind, d.id, d.name, d.code, c.sip_account,
         '${CallProtocol.Sip}'::text AS protocol,
         CASE WHEN c.sip_account <> '' THEN ${AccountStatus.Normal} ELSE ${AccountStatus.Suspended} END AS account_status,
         c.network_status AS online, NULL::text AS agent_mode, r.region_name, NULL::int AS group_id
    FROM device d JOIN alarm_column c ON c.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
  UNION ALL
  SELECT '${IntercomEndpointKind.Agent}', u.id, u.username, '', a.sip_account, a.protocol, a.account_status,
         CASE WHEN a.mode = '${AgentMode.Offline}' THEN ${OnlineState.Offline} ELSE ${OnlineState.Online} END, a.mode, r.region_name, a.group_id
    FROM alarm_agent a JOIN sys_user u ON u.id = a.user_id JOIN alarm_user_group g ON g.id = a.group_id
    LEFT JOIN region r ON r.id = g.region_id
) e`;

/**
 * A row of the page: with the group each endpoint's calls go to (a column's worked out as a press would be,
 * groupOfColumn) and its calls, from the index of its side (column or agent). Scalar subqueries in the select list,
 * which PostgreSQL works out after the sort and the limit: for the rows of the page only, not the whole fleet.
 */
const COLUMN = `e.kind = '${IntercomEndpointKind.Column}'`;
const CALLS_OF = (what: string) =>
  `CASE WHEN ${COLUMN} THEN (SELECT ${what} FROM alarm_call WHERE device_id = e.id)
        ELSE (SELECT ${what} FROM alarm_call WHERE agent_user_id = e.id) END`;
const PAGE_COLUMNS = `e.kind || ':' || e.id AS key, e.kind, e.id, e.name, e.code, e.sip_account AS "sipAccount", e.protocol,
  e.account_status AS "accountStatus", e.online, e.agent_mode AS "agentMode", e.region_name AS "regionName",
  (SELECT g.name FROM alarm_user_group g WHERE g.id = CASE WHEN ${COLUMN} THEN ${groupOfColumn('e.id')} ELSE e.group_id END) AS "groupName",
  ${CALLS_OF('count(*)::int')} AS "callCount", ${CALLS_OF('max(started_at)')} AS "lastCallAt"`;

/** equipmentInquiry (docs/alarm-intercom.md): the intercom's endpoints, by name, with the spec's filters. */
@Injectable()
export class IntercomEndpointsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: IntercomEndpointPageDto): Promise<PageResult<IntercomEndpointRow>> {
    const where = new Where()
      .addIf(q.keyword, `lower(e.name || chr(1) || e.code || chr(1) || e.sip_account) LIKE ?`, q.keyword && likeContains(q.keyword))
      .addIf(q.kind, `e.kind = ?`)
      .addIf(q.protocol, `e.protocol = ?`)
      .addIf(q.accountStatus, `e.account_status = ?`)
      .addIf(q.online, `e.online = ?`);
    return pagedQuery<IntercomEndpointRow>(this.db, {
      select: PAGE_COLUMNS,
      from: ENDPOINTS,
      where,
      orderBy: 'lower(e.name), e.kind, e.id',
      outerOrderBy: 'lower(page.name), page.kind, page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }
}
