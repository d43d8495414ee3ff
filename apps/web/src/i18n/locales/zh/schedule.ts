import type { schedule as en } from '../en/schedule';

/** 计划：星期与时段。 */
export const schedule: typeof en = {
  weekday: { 1: '周一', 2: '周二', 3: '周三', 4: '周四', 5: '周五', 6: '周六', 7: '周日' },
  everyDay: '每天',
  weekdaysHint: '未选择则默认全部七天',
  start: '开始',
  end: '结束',
  addPeriod: '添加时间段',
  removePeriod: '删除时间段',
};
