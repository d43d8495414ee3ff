/** 各类设备的下发：指令台账的进度面板。 */
export const dispatch = {
  title: '下发进度',
  empty: '下发指令后，可在此逐台查看执行进度。',
  status: {
    toBeSent: '待发送',
    partiallySuccessful: '部分成功',
    allSuccessful: '全部成功',
    allFailures: '全部失败',
    sentSuccess: '发送成功',
    sentFailed: '发送失败',
  },
  state: { queued: '排队中', sent: '已发送', delivered: '已送达', failed: '失败', expired: '已过期' },
  progress: '已应答 {{done}} / {{total}}',
  retryFailed: '仅重试失败项',
  retried: '已向失败的设备重新下发指令',
  stateColumn: '状态',
  attempts: '尝试次数',
  lastError: '最近错误',
  device: '设备',
  createdBy: '由 {{name}} 下发',
  expiresAt: '{{time}} 过期',
};
