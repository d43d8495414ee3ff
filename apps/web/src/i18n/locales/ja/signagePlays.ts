/** フロアスクリーンの再生実績（/floor-screen/plays）。 */
export const signagePlays = {
  startDate: '開始日',
  endDate: '終了日',
  region: '地域',
  group: 'グループ',
  device: 'デバイス',
  ad: '広告',
  day: '日付',
  all: 'すべて',
  plays: '再生回数',
  seconds: '再生秒数',
  by: { ad: '広告別', device: 'デバイス別', day: '日別', detail: '広告・デバイス・日別' },
  totals: '再生 {{plays}} 回、{{seconds}} 秒',
  deletedAd: '削除された広告 #{{id}}',
};
