import type { Shape } from '../shape';
import type { alarms as en } from '../en/alarms';

export const alarms: Shape<typeof en> = {
  kind: {
    fault: '设备故障',
    dayBurning: '白天亮灯',
    darkLamp: '应亮未亮',
  },
  state: {
    active: '未处理',
    acknowledged: '已确认',
    cleared: '已清除',
  },
  view: {
    label: '告警范围',
    open: '当前告警',
    history: '历史告警',
  },
  summary: {
    active: '未处理：{{count}}',
    acknowledged: '已确认：{{count}}',
  },
  fields: {
    raisedAt: '告警时间',
    device: '单灯',
    region: '区域',
    alarm: '告警内容',
    kind: '告警类型',
    code: '故障代码',
    state: '状态',
    handled: '处理记录',
    from: '告警开始时间',
    to: '告警截止时间',
  },
  filters: {
    all: '全部',
    keywordPlaceholder: '单灯名称或客户端 ID',
  },
  actions: {
    acknowledge: '确认',
    clear: '清除',
    acknowledgeSelected: '确认所选（{{count}}）',
    clearSelected: '清除所选（{{count}}）',
    selectPage: '选择本页未结束的告警',
    history: '该单灯的告警历史',
    showAll: '显示全部单灯',
  },
  confirm: {
    acknowledgeTitle: '确认告警',
    acknowledgeText_one: '确认 {{count}} 条告警？告警会保持打开，直到设备或您将其清除。',
    acknowledgeText_other: '确认 {{count}} 条告警？告警会保持打开，直到设备或您将其清除。',
    clearTitle: '清除告警',
    clearText_one: '清除 {{count}} 条告警？如果设备仍在上报该故障，下次上报时会产生新的告警。',
    clearText_other: '清除 {{count}} 条告警？如果设备仍在上报该故障，下次上报时会产生新的告警。',
  },
  feedback: {
    acknowledged: '已确认告警：{{count}}',
    cleared: '已清除告警：{{count}}',
  },
  handled: {
    acknowledged: '{{who}} 于 {{time}} 确认',
    clearedBy: '{{who}} 于 {{time}} 清除',
    clearedByDevice: '设备于 {{time}} 清除',
  },
  deviceFilter: '{{name}} 的告警历史',
};
