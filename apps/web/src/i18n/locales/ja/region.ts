import type { Shape } from '../shape';
import type { region as en } from '../en/region';

export const region: Shape<typeof en> = {
  addTop: 'エリアを追加',
  addChild: '下位エリアを追加',
  edit: 'エリアを編集',
  delete: 'エリアを削除',
  createTitle: 'エリアを追加',
  createChildTitle: '下位エリアを追加',
  editTitle: 'エリアを編集',
  filterPlaceholder: 'エリア名で絞り込み',
  expandAll: 'すべて展開',
  collapseAll: 'すべて折りたたむ',
  expand: '展開',
  collapse: '折りたたむ',
  count_one: '全 {{count}} エリア',
  count_other: '全 {{count}} エリア',
  topLevelCount_one: '最上位 {{count}} 件',
  topLevelCount_other: '最上位 {{count}} 件',
  childCount_one: '下位エリア {{count}} 件',
  childCount_other: '下位エリア {{count}} 件',
  columns: {
    region: 'エリア',
    id: 'ID',
  },
  form: {
    parentHint: '未選択の場合は最上位エリアとして作成されます',
    topLevel: '最上位エリア',
    namesTitle: '言語別の表示名',
    namesHint: '中国語・英語の画面で表示されます。未入力の場合はエリア名が表示されます。',
    regionNamePlaceholder: '例：南山区',
    zhCnPlaceholder: '例：南山区',
    enUsPlaceholder: '例：Nanshan District',
    remarkPlaceholder: '運用担当者向けのメモ（任意）',
  },
  deleteDetail: 'エリア「{{name}}」を削除します。下位エリアやデバイスが残っているエリアは削除できません。',
  empty: {
    title: 'エリアがまだありません',
    description: 'まず市などの最上位エリアを追加し、その下に区や街区を追加してください。',
  },
  noMatch: {
    title: '該当するエリアがありません',
    description: '「{{query}}」を含むエリア名はありません。',
  },
  loadFailed: {
    title: 'エリアツリーを読み込めませんでした',
    description: 'ネットワーク接続を確認して、もう一度お試しください。',
    retry: '再読み込み',
  },
  cascader: {
    clear: 'クリア',
    nothingFound: '該当するエリアがありません',
    previousLevels: '上位の階層を表示',
    nextLevels: '下位の階層を表示',
  },
};
