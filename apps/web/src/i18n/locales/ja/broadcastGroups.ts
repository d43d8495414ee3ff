import type { broadcastGroups as en } from '../en/broadcastGroups';

/** 放送端末グループ（/broadcastManage/groupManagement とその作成・編集ページ）とタスクフォームのグループ選択。 */
export const broadcastGroups: typeof en = {
  add: 'グループを追加',
  create: 'グループを作成',
  edit: 'グループを編集',
  back: 'グループ一覧に戻る',
  notFound: 'このグループは存在しません',
  empty: 'グループがありません',
  deleteDetail: 'グループ「{{name}}」を削除しますか？端末は残ります。',
  fields: {
    groupName: 'グループ名',
    region: '地域',
    remark: '備考',
    memberCount: '端末数',
    updatedAt: '更新日時',
  },
  terminals: {
    title: 'グループの端末',
    choose: '端末を選択',
    chosen: 'グループ内（{{count}}）',
    none: 'このグループにはまだ端末がありません：一覧でチェックしてください',
    remove: 'グループから外す',
    removeAll: 'すべて外す',
  },
  picker: {
    label: 'グループ',
    placeholder: 'グループを選択',
    members_one: '{{count}} 台の端末',
    members_other: '{{count}} 台の端末',
    nothing: 'グループがありません',
  },
};
