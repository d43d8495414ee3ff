import type { broadcastGroups as en } from '../en/broadcastGroups';

/** 广播终端分组（/broadcastManage/groupManagement 及其新增、编辑页）与任务表单的分组选择。 */
export const broadcastGroups: typeof en = {
  add: '新增分组',
  create: '新建分组',
  edit: '编辑分组',
  back: '返回分组列表',
  notFound: '该分组不存在',
  empty: '暂无分组',
  deleteDetail: '删除分组“{{name}}”？其中的终端会保留。',
  fields: {
    groupName: '分组名称',
    region: '区域',
    remark: '备注',
    memberCount: '终端数',
    updatedAt: '更新时间',
  },
  terminals: {
    title: '分组终端',
    choose: '选择终端',
    chosen: '已加入（{{count}}）',
    none: '该分组还没有终端：请在列表中勾选',
    remove: '移出分组',
    removeAll: '全部移出',
  },
  picker: {
    label: '分组',
    placeholder: '请选择分组',
    members_one: '{{count}} 个终端',
    members_other: '{{count}} 个终端',
    nothing: '暂无分组',
  },
};
