import type { broadcastPlaylists as en } from '../en/broadcastPlaylists';

/** 播放列表（/broadcastManage/playList）、播放模式及播放列表与广播表单的有序素材列表。 */
export const broadcastPlaylists: typeof en = {
  add: '新增播放列表',
  edit: '编辑播放列表',
  deleteDetail: '确定删除播放列表“{{name}}”？',
  name: '播放列表名称',
  playbackMode: '播放模式',
  modes: {
    normal_mode: '顺序播放',
    list_cycle_mode: '列表循环',
    random_mode: '随机播放',
  },
  items: '素材',
  itemCount_one: '{{count}} 个素材',
  itemCount_other: '{{count}} 个素材',
  totalDuration: '总时长',
  updatedBy: '修改人',
  updatedAt: '修改时间',
  addMedia: '添加素材',
  addMediaPlaceholder: '搜索审核通过的素材',
  noMedia: '没有匹配的已审核素材',
  moveUp: '上移',
  moveDown: '下移',
  remove: '移除',
  order: '序号',
  noItems: '暂无素材：请从上方列表添加审核通过的素材',
  materialName: '素材名称',
  duration: '时长',
};
