import type { Shape } from '../shape';
import type { alarms as en } from '../en/alarms';

export const alarms: Shape<typeof en> = {
  kind: {
    fault: 'デバイス故障',
    dayBurning: '昼間点灯',
    darkLamp: '点灯予定なのに消灯',
  },
  state: {
    active: '未対応',
    acknowledged: '確認済み',
    cleared: '解除済み',
  },
  view: {
    label: '表示するアラーム',
    open: '未解決のアラーム',
    history: '履歴',
  },
  summary: {
    active: '未対応: {{count}}',
    acknowledged: '確認済み: {{count}}',
  },
  fields: {
    raisedAt: '発生日時',
    device: '街灯',
    region: '地域',
    alarm: 'アラーム',
    kind: 'アラーム種別',
    code: '故障コード',
    state: '状態',
    handled: '対応記録',
    from: '発生日時（から）',
    to: '発生日時（まで）',
  },
  filters: {
    all: 'すべて',
    keywordPlaceholder: '街灯名またはクライアント ID',
  },
  actions: {
    acknowledge: '確認',
    clear: '解除',
    acknowledgeSelected: '選択を確認（{{count}}）',
    clearSelected: '選択を解除（{{count}}）',
    selectPage: 'このページの未解決アラームを選択',
    history: 'この街灯のアラーム履歴',
    showAll: 'すべての街灯を表示',
  },
  confirm: {
    acknowledgeTitle: 'アラームの確認',
    acknowledgeText_one: '{{count}} 件のアラームを確認しますか？デバイスまたはあなたが解除するまで未解決のままです。',
    acknowledgeText_other: '{{count}} 件のアラームを確認しますか？デバイスまたはあなたが解除するまで未解決のままです。',
    clearTitle: 'アラームの解除',
    clearText_one: '{{count}} 件のアラームを解除しますか？デバイスが故障を報告し続ける場合、次の報告で新しいアラームが発生します。',
    clearText_other: '{{count}} 件のアラームを解除しますか？デバイスが故障を報告し続ける場合、次の報告で新しいアラームが発生します。',
  },
  feedback: {
    acknowledged: '確認したアラーム: {{count}}',
    cleared: '解除したアラーム: {{count}}',
  },
  handled: {
    acknowledged: '{{who}} が {{time}} に確認',
    clearedBy: '{{who}} が {{time}} に解除',
    clearedByDevice: 'デバイスが {{time}} に解除',
  },
  deviceFilter: '{{name}} のアラーム履歴',
};
