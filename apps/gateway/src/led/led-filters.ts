import { OnlineState, ScreenState, type Language } from '@sc/contracts';
import { translate } from '@sc/i18n';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains } from '../common/sql';
import { networkWord, type ListExportSource } from '../exports/list-export';
import { regionLabelSql } from '../regions/region-label';

export interface LedFilters {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
}

/** The screens over `device d JOIN led_screen s`, with their region r and pole p. */
export const LED_FROM = `device d JOIN led_screen s ON s.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/**
 * The screen list's filters over `device d JOIN led_screen s`, shared by the page and the export: the name or the
 * serial number, the region and below, online or offline.
 */
export function ledWhere(f: LedFilters): Where {
  return (
    new Where()
      // The name or the serial number (the separator keeps a match from spanning both).
      .addIf(f.name, `lower(d.name || chr(1) || d.code) LIKE ?`, f.name && likeContains(f.name))
      .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.networkStatus, `s.network_status = ?`)
  );
}

/** The screen list as an xlsx download, filtered as on screen, the spec's LED fields with the words of the caller's language. */
export const LED_EXPORT: ListExportSource<LedFilters> = {
  sheetName: 'led',
  columns: [
    'name',
    'sn',
    'IPAddress',
    'width',
    'height',
    'timeZone',
    'regionName',
    'poleCode',
    'networkStatus',
    'brightness',
    'volume',
    'screen',
    'heartbeatTime',
  ],
  query: (filters, lng: Language) => ({
    select: `d.name, d.code AS sn, s.ip_address AS "IPAddress", s.width, s.height, s.time_zone AS "timeZone", ${regionLabelSql('r', lng)} AS "regionName",
      p.code AS "poleCode", s.network_status AS "networkStatus", s.brightness, s.volume, s.screen_state AS screen,
      to_char(s.reported_at AT TIME ZONE s.time_zone, 'YYYY-MM-DD HH24:MI:SS') AS "heartbeatTime"`,
    from: LED_FROM,
    where: ledWhere(filters),
    orderBy: 'd.id',
    id: 'd.id',
  }),
  present: (row, lng) => ({
    ...row,
    networkStatus: networkWord(lng, row.networkStatus),
    screen: translate(lng, row.screen === ScreenState.Black ? 'ledScreenBlack' : 'ledScreenBright'),
  }),
};
