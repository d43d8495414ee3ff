/** Dispatches of any device family: the command ledger's progress panel. */
export const dispatch = {
  title: 'Dispatch progress',
  empty: 'Send a command to follow its progress here, device by device.',
  status: {
    toBeSent: 'To be sent',
    partiallySuccessful: 'Partially successful',
    allSuccessful: 'All successful',
    allFailures: 'All failures',
    sentSuccess: 'Sent successfully',
    sentFailed: 'Sending failed',
  },
  state: {
    queued: 'Queued',
    sent: 'Sent',
    delivered: 'Delivered',
    failed: 'Failed',
    expired: 'Expired',
  },
  progress: '{{done}} of {{total}} answered',
  retryFailed: 'Retry failed only',
  retried: 'The failed devices were sent the command again',
  stateColumn: 'Status',
  attempts: 'Attempts',
  lastError: 'Last error',
  device: 'Device',
  createdBy: 'Sent by {{name}}',
  expiresAt: 'Expires {{time}}',
};
