/** 落地屏播放证明（/floor-screen/plays）。 */
export const signagePlays = {
  startDate: '开始日期',
  endDate: '结束日期',
  region: '区域',
  group: '分组',
  device: '设备',
  ad: '广告',
  day: '日期',
  all: '全部',
  plays: '播放次数',
  seconds: '播放秒数',
  by: { ad: '按广告', device: '按设备', day: '按天', detail: '按广告、设备和天' },
  totals: '共播放 {{plays}} 次，{{seconds}} 秒',
  deletedAd: '已删除的广告 #{{id}}',
};
