import type { Shape } from '../shape';
import type { energy as en } from '../en/energy';

export const energy: Shape<typeof en> = {
  period: {
    label: '集計期間',
    day: '日',
    month: '月',
  },
  fields: {
    day: '日付',
    month: '月',
    energy: '消費電力量',
    full: '全出力時の電力量',
    saving: '節電量',
    litHours: '点灯時間（合計）',
    lamps: '街灯数',
    lamp: '街灯',
    region: '地域',
    ratedPower: '定格電力',
    savingShare: '節電率',
  },
  charts: {
    byHour: '時間別の電力量',
    byDay: '日別の電力量',
    byRegion: '地域別の電力量と節電量',
    timeZone: 'タイムゾーン：{{zone}}',
  },
  lamps: {
    title: '街灯（消費の多い順）',
  },
  selectedRegion: '{{region}} とその下位地域を表示しています。',
  allRegions: 'すべての地域を表示',
  toggleRegion: '下位地域の表示を切り替え',
  unassigned: '地域未設定の街灯',
  ratedPower: {
    edit: '定格電力を編集',
    title: '{{name}} の定格電力',
    hint: '最大輝度時のワット数：全出力時の電力量と節電量はこの値で計算されます（過去の日も含む）。',
  },
};
