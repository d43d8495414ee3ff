import type { Shape } from '../shape';
import type { energy as en } from '../en/energy';

export const energy: Shape<typeof en> = {
  period: {
    label: '统计周期',
    day: '按日',
    month: '按月',
  },
  fields: {
    day: '日期',
    month: '月份',
    energy: '用电量',
    full: '全功率用电量',
    saving: '节电量',
    litHours: '累计亮灯时长（小时）',
    lamps: '单灯数',
    lamp: '单灯',
    region: '区域',
    ratedPower: '额定功率',
    savingShare: '节电率',
  },
  charts: {
    byHour: '逐时用电量',
    byDay: '逐日用电量',
    byRegion: '各区域用电量与节电量',
    timeZone: '时区：{{zone}}',
  },
  lamps: {
    title: '单灯用电排行',
  },
  selectedRegion: '当前显示 {{region}} 及其下级区域。',
  allRegions: '显示全部区域',
  toggleRegion: '展开或收起下级区域',
  unassigned: '未分配区域的单灯',
  ratedPower: {
    edit: '修改额定功率',
    title: '{{name}} 的额定功率',
    hint: '满亮度时的功率（瓦）：全功率用电量和节电量以此计算，历史数据同样按新值计算。',
  },
};
