import type { schedule as en } from '../en/schedule';

/** スケジュール：曜日と時間帯。 */
export const schedule: typeof en = {
  weekday: { 1: '月', 2: '火', 3: '水', 4: '木', 5: '金', 6: '土', 7: '日' },
  everyDay: '毎日',
  weekdaysHint: '未選択の場合は 7 日すべて',
  start: '開始',
  end: '終了',
  addPeriod: '時間帯を追加',
  removePeriod: '時間帯を削除',
};
