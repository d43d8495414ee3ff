import type { broadcastPlaylists as en } from '../en/broadcastPlaylists';

/** プレイリスト（/broadcastManage/playList）、再生モード、プレイリストと放送フォームの順序付き素材リスト。 */
export const broadcastPlaylists: typeof en = {
  add: 'プレイリストを追加',
  edit: 'プレイリストを編集',
  deleteDetail: 'プレイリスト「{{name}}」を削除しますか？',
  name: 'プレイリスト名',
  playbackMode: '再生モード',
  modes: {
    normal_mode: '通常再生',
    list_cycle_mode: 'リピート再生',
    random_mode: 'ランダム再生',
  },
  items: '素材',
  itemCount_one: '{{count}} 件の素材',
  itemCount_other: '{{count}} 件の素材',
  totalDuration: '合計時間',
  updatedBy: '変更者',
  updatedAt: '変更日時',
  addMedia: '素材を追加',
  addMediaPlaceholder: '承認済みの素材を検索',
  noMedia: '一致する承認済みの素材はありません',
  moveUp: '上へ',
  moveDown: '下へ',
  remove: '外す',
  order: 'No.',
  noItems: '素材はまだありません。上のリストから承認済みの素材を追加してください',
  materialName: '素材名',
  duration: '長さ',
};
