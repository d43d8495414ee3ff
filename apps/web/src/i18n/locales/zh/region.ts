import type { Shape } from '../shape';
import type { region as en } from '../en/region';

export const region: Shape<typeof en> = {
  addTop: '新增区域',
  addChild: '新增下级区域',
  edit: '编辑区域',
  delete: '删除区域',
  createTitle: '新增区域',
  createChildTitle: '新增下级区域',
  editTitle: '编辑区域',
  filterPlaceholder: '输入区域名称筛选',
  expandAll: '全部展开',
  collapseAll: '全部折叠',
  expand: '展开',
  collapse: '折叠',
  count_one: '共 {{count}} 个区域',
  count_other: '共 {{count}} 个区域',
  topLevelCount_one: '顶级 {{count}} 个',
  topLevelCount_other: '顶级 {{count}} 个',
  childCount_one: '{{count}} 个下级区域',
  childCount_other: '{{count}} 个下级区域',
  columns: {
    region: '区域',
    id: 'ID',
  },
  form: {
    parentHint: '不选则创建为顶级区域',
    topLevel: '顶级区域',
    namesTitle: '多语言名称',
    namesHint: '分别在中文和英文界面中显示；未填写时显示区域名称。',
    regionNamePlaceholder: '例如：南山区',
    zhCnPlaceholder: '例如：南山区',
    enUsPlaceholder: '例如：Nanshan District',
    remarkPlaceholder: '选填，供运维人员参考',
  },
  deleteDetail: '将删除区域“{{name}}”。仍有下级区域或设备的区域无法删除。',
  empty: {
    title: '暂无区域',
    description: '先新增城市等顶级区域，再在其下添加区县和街道。',
  },
  noMatch: {
    title: '没有匹配的区域',
    description: '没有名称包含“{{query}}”的区域。',
  },
  loadFailed: {
    title: '区域树加载失败',
    description: '请检查网络连接后重试。',
    retry: '重新加载',
  },
  cascader: {
    clear: '清空',
    nothingFound: '无匹配区域',
    previousLevels: '显示上级',
    nextLevels: '显示下级',
  },
};
