import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { DataSource } from 'typeorm';
import { TERMINAL_HISTORY_MAX, type TerminalHistory, type TerminalPlay } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { InjectDb } from '../infra/database';
import { lampPlaces } from '../strategies/lamp-places';

/** A broadcast terminal's day: what it played or carried (broadcast_play_history, written by the broadcast worker). */
@Injectable()
export class TerminalHistoryService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async day(id: number, date: string | undefined): Promise<TerminalHistory> {
    const query = (sql: string, params?: unknown[]) => this.db.query(sql, params) as Promise<unknown[]>;
    const [terminal] = (await query(`SELECT 1 FROM broadcast_terminal WHERE device_id = $1`, [id])) as unknown[];
    if (!terminal) throw AppException.notFound('notFound');
    // The terminal's clock: its region's time zone (the installation's without one).
    const timeZone = (await lampPlaces(query, [id], this.config.defaultPlace)).get(id)?.place.timeZone ?? this.config.defaultPlace.timeZone;
    const day = (date ? DateTime.fromISO(date.slice(0, 10), { zone: timeZone }) : DateTime.now().setZone(timeZone)).startOf('day');
    const from = day.toJSDate();
    const to = day.plus({ days: 1 }).toJSDate();
    const plays = (await query(
      `SELECT occupancy, title, task_id AS "taskId", media, started_at AS "startedAt", ended_at AS "endedAt"
         FROM broadcast_play_history
        WHERE device_id = $1 AND started_at < $3 AND (ended_at IS NULL OR ended_at > $2)
        ORDER BY started_at DESC`,
      [id, from, to],
    )) as (Omit<TerminalPlay, 'startedAt' | 'endedAt'> & { startedAt: Date; endedAt: Date | null })[];
    const now = Date.now();
    const hours: { start: number; end: number }[] = [];
    for (let h = day; h < day.plus({ days: 1 }); h = h.plus({ hours: 1 })) hours.push({ start: h.toMillis(), end: h.plus({ hours: 1 }).toMillis() });
    const busy = hours.map(() => 0);
    for (const play of plays) {
      const start = play.startedAt.getTime();
      const end = play.endedAt ? play.endedAt.getTime() : now;
      hours.forEach((hour, i) => {
        const overlap = Math.min(end, hour.end) - Math.max(start, hour.start);
        if (overlap > 0) busy[i] += overlap;
      });
    }
    return {
      date: day.toISODate() as string,
      timeZone,
      plays: plays
        .slice(0, TERMINAL_HISTORY_MAX)
        .map((p) => ({ ...p, startedAt: p.startedAt.toISOString(), endedAt: p.endedAt?.toISOString() ?? null })),
      busySeconds: busy.map((ms) => Math.round(ms / 1000)),
    };
  }
}
