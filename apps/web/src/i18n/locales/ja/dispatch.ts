/** あらゆるデバイス種別への配信：コマンド台帳の進捗パネル。 */
export const dispatch = {
  title: '配信の進捗',
  empty: 'コマンドを送信すると、ここでデバイスごとの進捗を確認できます。',
  status: {
    toBeSent: '送信待ち',
    partiallySuccessful: '一部成功',
    allSuccessful: 'すべて成功',
    allFailures: 'すべて失敗',
    sentSuccess: '送信成功',
    sentFailed: '送信失敗',
  },
  state: { queued: '待機中', sent: '送信済み', delivered: '到達', failed: '失敗', expired: '期限切れ' },
  progress: '{{total}} 件中 {{done}} 件が応答',
  retryFailed: '失敗分のみ再試行',
  retried: '失敗したデバイスにコマンドを再送信しました',
  stateColumn: 'ステータス',
  attempts: '試行回数',
  lastError: '直近のエラー',
  device: 'デバイス',
  createdBy: '{{name}} が送信',
  expiresAt: '{{time}} に期限切れ',
};
